import { chmodSync, statSync } from 'node:fs';

/**
 * DATA_DIR holds the embedded database, the outbox (mail with live sign-in and reset links) and the
 * admin channel's socket: the owner's only, never readable by other users of the machine.
 */

/** The bits of a mode other users have (group and other). */
const OPEN_BITS = 0o077;

/**
 * Makes every file and folder this process (and the processes it starts) creates from now on the
 * owner's only (0600 files, 0700 folders), whatever the shell's umask: PGlite writes its own files and
 * cannot be given a mode, so the umask is the one place that covers all of them.
 */
export function restrictNewFilesToOwner(): void {
  const previous = process.umask(OPEN_BITS);
  process.umask(previous | OPEN_BITS);
}

/**
 * Closes an existing DATA_DIR that other users may read (chmod 700) and answers the warning to log and
 * print: what was open, and that what it held before may have been read. Null when it is closed already
 * or does not exist yet (it is made owner-only then).
 */
export function openDataDirWarning(dataDir: string): string | null {
  let mode: number;
  try {
    mode = statSync(dataDir).mode & 0o777;
  } catch {
    return null;
  }
  if ((mode & OPEN_BITS) === 0) {
    return null;
  }
  const was = `DATA_DIR ${dataDir} was open to other users of this machine (mode ${mode.toString(8)})`;
  try {
    chmodSync(dataDir, mode & ~OPEN_BITS);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `${was} and could not be closed (${reason}): its embedded database and outbox mail are readable; run chmod 700 ${dataDir}`;
  }
  return `${was}; closed to mode ${(mode & ~OPEN_BITS).toString(8)} now. Files it held may have been read by them (outbox mail holds live links)`;
}
