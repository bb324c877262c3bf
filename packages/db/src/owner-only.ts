import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Takes group and other permissions off every file and folder under `dir` (and `dir` itself), as
 * `chmod -R go-rwx` does. PGlite writes its first data folder with mode 0666 files whatever the umask
 * (later files follow the umask): the embedded database must be its owner's only. Answers how many
 * entries it closed.
 */
export function closeTreeToOthers(dir: string): number {
  let closed = 0;
  const close = (path: string) => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) {
      return;
    }
    if ((stats.mode & 0o077) !== 0) {
      chmodSync(path, stats.mode & 0o700);
      closed += 1;
    }
    if (stats.isDirectory()) {
      for (const name of readdirSync(path)) {
        close(join(path, name));
      }
    }
  };
  close(dir);
  return closed;
}
