import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type DbHandle } from './client.ts';

/** The database engines a server test suite runs on: PGlite always, PostgreSQL when configured. */
export function testDatabaseKinds(): Array<'pglite' | 'postgres'> {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A fresh database (migrated unless told not to) that no other test sees: an in-memory PGlite, or a new PostgreSQL
 * database created beside TEST_DATABASE_URL's and dropped on close.
 */
export async function createTestDb(
  kind: 'pglite' | 'postgres',
  options: { migrate?: boolean } = {},
): Promise<DbHandle & { databaseUrl?: string }> {
  const shouldMigrate = options.migrate ?? true;
  if (kind === 'pglite') {
    const handle = await createDb({ dataDir: null });
    if (shouldMigrate) {
      await handle.migrate();
    }
    return handle;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    throw new Error('TEST_DATABASE_URL is not set');
  }
  const name = `bytegate_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await createDb({ databaseUrl: url.toString(), maxConnections: 5 });
  if (shouldMigrate) {
    await handle.migrate();
  }
  return {
    ...handle,
    databaseUrl: url.toString(),
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
