import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDb, type DbHandle } from '@bytegate/db';
import type { Config } from '../config.ts';
import { restrictNewFilesToOwner } from './data-dir.ts';

/**
 * Opens the configured database. The embedded one (PGlite) serves a single process, so its data
 * folder carries a lock file with the owner's pid; a second process is refused with a clear message.
 */
export async function openDatabase(config: Config): Promise<DbHandle> {
  if (config.databaseUrl) {
    return createDb({ databaseUrl: config.databaseUrl });
  }
  // The data folder is the owner's only (data-dir.ts); back-office commands open it too.
  restrictNewFilesToOwner();
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const lockPath = lockPathOf(config.dataDir);
  const owner = embeddedDatabaseOwner(config.dataDir);
  if (owner !== null && owner !== process.pid) {
    throw new Error(
      `The embedded database in ${config.dataDir} is in use by process ${owner} (a running Bytegate server). ` +
        'Back-office commands run inside it over its admin channel; this one needs it stopped first ' +
        '(or PostgreSQL with DATABASE_URL, to run several processes).',
    );
  }
  writeFileSync(lockPath, String(process.pid), { mode: 0o600 });
  const handle = await createDb({ dataDir: config.dataDir });
  return {
    ...handle,
    async close() {
      await handle.close();
      if (readLockOwner(lockPath) === process.pid) {
        rmSync(lockPath, { force: true });
      }
    },
  };
}

const lockPathOf = (dataDir: string) => join(dataDir, 'bytegate.pid');

/** The pid of the live process that has the embedded database in `dataDir` open, or null. */
export function embeddedDatabaseOwner(dataDir: string): number | null {
  const owner = readLockOwner(lockPathOf(dataDir));
  return owner !== null && isAlive(owner) ? owner : null;
}

function readLockOwner(lockPath: string): number | null {
  if (!existsSync(lockPath)) {
    return null;
  }
  const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
  return Number.isInteger(pid) ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
