import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The browser tests run against the built app: build it once, when it is stale. */
export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = spawnSync(process.execPath, ['scripts/build-web.mjs'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error('building the web app failed');
  }
}
