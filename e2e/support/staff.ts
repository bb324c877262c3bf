import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestDb } from '@bytegate/db/testing';

// Staff accounts are made with the command line, as in production: `bytegate staff grant`. Suites that
// need staff run the server on a PostgreSQL database of their own (beside TEST_DATABASE_URL's), which the
// command opens alongside it. (On the embedded database the command would run inside the server over
// its admin channel; cli-beside-server.test.ts covers that way.)

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** Whether PostgreSQL is configured for tests (TEST_DATABASE_URL): suites that grant staff need it. */
export const hasTestPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** A fresh, migrated PostgreSQL database for one suite's server; `drop()` removes it. */
export async function createSuiteDatabase(): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  const handle = await createTestDb('postgres');
  const { databaseUrl } = handle;
  if (!databaseUrl) {
    throw new Error('the PostgreSQL test database has no URL');
  }
  return { databaseUrl, drop: () => handle.close() };
}

/** Runs `bytegate <args>` against the database at `databaseUrl`; answers what it printed. */
export async function runBytegate(databaseUrl: string, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['apps/server/bin/bytegate.mjs', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
  return stdout;
}

/** Makes an existing account support or admin, as an operator would (`bytegate staff grant`). */
export function grantStaffRole(
  databaseUrl: string,
  email: string,
  role: 'support' | 'admin',
): Promise<string> {
  return runBytegate(databaseUrl, [
    'staff',
    'grant',
    '--email',
    email,
    '--role',
    role,
    '--reason',
    'e2e staff',
  ]);
}
