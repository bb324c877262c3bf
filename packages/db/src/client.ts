import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { closeTreeToOthers } from './owner-only.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The one database type the rest of the code sees, whichever engine is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Query functions take either the database or an open transaction. */
export type Executor = Database | Transaction;

export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

export interface DbHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies every committed migration that has not run yet. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** PostgreSQL connection string; when absent, PGlite stores its files under `dataDir`. */
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; `null` keeps PGlite in memory (tests). */
  dataDir?: string | null;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** How long opening a PostgreSQL connection may take before it fails (default 5 s). */
  connectTimeoutMs?: number;
  /** How long one query may wait for its answer before it fails (default 10 s). */
  queryTimeoutMs?: number;
  /** PGlite only: start from this dump of a data directory (tests start from a migrated one). */
  loadDataDir?: Blob;
}

/**
 * `db.transaction` on a pool that always gives its connection back. drizzle sends BEGIN before its
 * try/finally, so a BEGIN that fails (the database stopped answering) kept its pooled connection for
 * good: a few failed transactions in an outage exhausted the pool, and `pool.end()` then never
 * finished. Here the connection is released whatever happens, and destroyed rather than reused when
 * the failure was the connection's (a BEGIN, COMMIT or ROLLBACK that failed), not the callback's.
 */
function transactionsReleasingClients(pool: pg.Pool) {
  // One drizzle instance per pooled connection (building one costs about 0.1 ms).
  const scopedByClient = new WeakMap<pg.PoolClient, NodePgDatabase<Schema>>();
  return async <T>(
    run: (tx: Transaction) => Promise<T>,
    config?: Parameters<Database['transaction']>[1],
  ): Promise<T> => {
    const client = await pool.connect();
    let scoped = scopedByClient.get(client);
    if (!scoped) {
      scoped = drizzleNodePg({ client, schema, casing: 'snake_case' });
      scopedByClient.set(client, scoped);
    }
    let callbackError: unknown = null;
    let broken: Error | undefined;
    try {
      return await scoped.transaction(async (tx) => {
        try {
          return await run(tx as unknown as Transaction);
        } catch (error) {
          callbackError = error;
          throw error;
        }
      }, config);
    } catch (error) {
      if (error !== callbackError) {
        broken = error instanceof Error ? error : new Error(String(error));
      }
      throw error;
    } finally {
      client.release(broken);
    }
  };
}

/** The advisory lock migrations run under ("bytegate migrate" as a number). */
const MIGRATE_LOCK = '6268757411903092';

/**
 * Runs the migrations while holding a session advisory lock, so that processes of a fleet starting at
 * once migrate one after another: the first applies them, the others wait and find nothing to do
 * (drizzle's migrator alone would let two apply the same migration and one fail).
 */
async function migrateOnePostgresAtATime(pool: pg.Pool, migrate: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    // Tried, not waited on: a blocking lock would run into the pool's query timeout behind a long migration.
    const deadline = Date.now() + 300_000;
    for (;;) {
      const { rows } = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1::bigint) as locked',
        [MIGRATE_LOCK],
      );
      if (rows[0]?.locked) {
        break;
      }
      if (Date.now() > deadline) {
        throw new Error('another process has been migrating this database for 5 minutes; giving up');
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    try {
      await migrate();
    } finally {
      await client.query('select pg_advisory_unlock($1::bigint)', [MIGRATE_LOCK]);
    }
  } finally {
    client.release();
  }
}

export async function createDb(options: CreateDbOptions): Promise<DbHandle> {
  if (options.databaseUrl) {
    // Bounded waits: when the database or the network to it stops answering, a query fails within
    // seconds (the API answers 503, the gateway keeps its usage for the next flush) instead of hanging
    // on a dead connection; the pool drops such a connection and opens a new one when it can.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      query_timeout: options.queryTimeoutMs ?? 10_000,
      keepAlive: true,
      // No JIT: our queries are short and indexed, but on large tables the planner's row estimates
      // pass jit_above_cost and compiling them then takes hundreds of milliseconds (a Statistics
      // query of 10 ms took 400, bench:stats); nothing here runs long enough to win it back.
      options: '-c jit=off',
    });
    // An idle connection that drops (a database restart, an administrator's kill) is discarded by the
    // pool and the next query opens a new one; unheard, the pool's 'error' event would end the process.
    pool.on('error', () => undefined);
    // Fail fast with the real reason (wrong host, no database) instead of at the first query.
    const probe = await pool.connect();
    probe.release();
    const db = drizzleNodePg({ client: pool, schema, casing: 'snake_case' });
    db.transaction = transactionsReleasingClients(pool) as typeof db.transaction;
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      migrate: () => migrateOnePostgresAtATime(pool, () => migrateNodePg(db, { migrationsFolder })),
      close: () => pool.end(),
    };
  }
  let dataPath: string | undefined;
  if (options.dataDir) {
    dataPath = join(options.dataDir, 'pglite');
    // The owner's only (the server also sets a umask, for the files PGlite makes inside).
    mkdirSync(dataPath, { recursive: true, mode: 0o700 });
  }
  const client = await PGlite.create(
    dataPath,
    options.loadDataDir ? { loadDataDir: options.loadDataDir } : {},
  );
  if (dataPath) {
    closeTreeToOthers(dataPath);
  }
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}
