import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { createDb, type DbHandle, migrationsFolder } from './client.ts';

/** The database engines a server test suite runs on: PGlite always, PostgreSQL when configured. */
export function testDatabaseKinds(): Array<'pglite' | 'postgres'> {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

// Every test suite wants a fresh, migrated database, and making one from nothing is the slow part of a
// suite's start: PGlite's initdb takes 2-3 s of CPU, the migrations another 0.4. So the migrated state
// is made once per schema (a hash of the migrations and of PGlite's version) and each test's database
// starts from a copy of it: a PGlite dump loads in about 0.6 s, a PostgreSQL database made from a
// template in 50 ms. The copies live under node_modules/.cache, made by whichever test needs one first
// (written aside and renamed into place, so a concurrent test never reads half of one).
const nodeModules = fileURLToPath(new URL('../../../node_modules/', import.meta.url));
const cacheDir = join(nodeModules, '.cache/bytegate-test-db');

let schemaVersionMemo: string | undefined;

/** Names the migrated schema: changes whenever a migration or the PGlite engine does. */
function schemaVersion(): string {
  if (schemaVersionMemo === undefined) {
    const hash = createHash('sha256');
    const pglitePackage = join(nodeModules, '@electric-sql/pglite/package.json');
    hash.update(existsSync(pglitePackage) ? readFileSync(pglitePackage) : 'pglite');
    for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
      const path = join(migrationsFolder, name);
      if (name.endsWith('.sql') || name.endsWith('.json')) {
        hash.update(name).update(readFileSync(path));
      }
    }
    schemaVersionMemo = hash.digest('hex').slice(0, 16);
  }
  return schemaVersionMemo;
}

/** Writes a cache entry aside and renames it into place; whoever renames first wins. */
function publish(build: (aside: string) => void | Promise<void>, final: string): Promise<void> | void {
  mkdirSync(cacheDir, { recursive: true });
  const aside = `${final}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const finish = () => {
    try {
      renameSync(aside, final);
    } catch {
      // Another process published it first (a directory cannot be renamed over a full one).
    }
    rmSync(aside, { recursive: true, force: true });
  };
  const built = build(aside);
  return built instanceof Promise ? built.then(finish) : finish();
}

let pgliteDumpMemo: Promise<Blob> | undefined;

/** A dump of a migrated in-memory PGlite, made once per schema. */
function migratedPgliteDump(): Promise<Blob> {
  pgliteDumpMemo ??= (async () => {
    const path = join(cacheDir, `pglite-${schemaVersion()}.tar`);
    if (!existsSync(path)) {
      await publish(async (aside) => {
        const client = await PGlite.create();
        await migratePglite(drizzlePglite({ client }), { migrationsFolder });
        const dump = await client.dumpDataDir('none');
        await client.close();
        writeFileSync(aside, Buffer.from(await dump.arrayBuffer()));
      }, path);
    }
    return new Blob([readFileSync(path)]);
  })();
  return pgliteDumpMemo;
}

/**
 * Fills `dataDir` (a DATA_DIR, as `bytegate` takes it) with a migrated embedded database, so a server
 * or command started on it skips initdb and the migrations; its own start still migrates what is new.
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  const template = join(cacheDir, `pglite-dir-${schemaVersion()}`);
  if (!existsSync(template)) {
    await publish(async (aside) => {
      const client = await PGlite.create(aside);
      await migratePglite(drizzlePglite({ client }), { migrationsFolder });
      await client.close();
    }, template);
  }
  cpSync(template, join(dataDir, 'pglite'), { recursive: true });
}

let postgresTemplateMemo: Promise<string> | undefined;

/** A migrated PostgreSQL database to copy, beside TEST_DATABASE_URL's, made once per schema. */
function postgresTemplate(adminUrl: string): Promise<string> {
  postgresTemplateMemo ??= (async () => {
    const name = `bytegate_template_${schemaVersion()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        // Built under a name of its own and renamed once no connection is left on it: a template must
        // have no sessions while it is copied, and a half-migrated one must never be found.
        const building = `bytegate_building_${randomBytes(6).toString('hex')}`;
        await admin.query(`CREATE DATABASE ${building}`);
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        const handle = await createDb({ databaseUrl: url.toString(), maxConnections: 2 });
        await handle.migrate();
        await handle.close();
        try {
          await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        } catch {
          // Another test built it first.
          await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        }
        // Templates of earlier schemas are of no more use.
        const stale = await admin.query<{ datname: string }>(
          "select datname from pg_database where datname like 'bytegate\\_template\\_%' and datname <> $1",
          [name],
        );
        for (const { datname } of stale.rows) {
          await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
        }
      }
    } finally {
      await admin.end();
    }
    return name;
  })();
  return postgresTemplateMemo;
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
    const handle = await createDb({
      dataDir: null,
      loadDataDir: shouldMigrate ? await migratedPgliteDump() : undefined,
    });
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
  const template = shouldMigrate ? await postgresTemplate(adminUrl) : null;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
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
