import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, migrationsFolder } from './client.ts';

/** When the newest committed migration was generated (drizzle's journal), as drizzle records it. */
export function newestMigrationMillis(): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ when: number }>;
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether every committed migration has run on this database: drizzle records each applied one with
 * the journal's timestamp, and applies them in order, so the newest recorded must be the newest committed.
 * Answers false when drizzle's table is not there yet (nothing migrated).
 */
export async function areMigrationsApplied(db: Database): Promise<boolean> {
  try {
    const result = (await db.execute(
      sql`select coalesce(max(created_at), 0)::bigint as newest from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: Array<{ newest: string | number }> };
    return Number(result.rows[0]?.newest ?? 0) >= newestMigrationMillis();
  } catch {
    return false;
  }
}

/** One round trip to the database (`select 1`); throws when it does not answer. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
