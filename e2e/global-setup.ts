import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The browser tests run against the built app: build it once, when it is stale. Then load the server's
 * modules once, so tsx's transpile cache is warm before two test files start servers at the same time
 * (a cold start took 16 s here, a warm one 6 s).
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = spawnSync(process.execPath, ['scripts/build-web.mjs'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error('building the web app failed');
  }
  const warm = spawnSync(process.execPath, ['apps/server/bin/bytegate.mjs', '--help'], {
    cwd: root,
    stdio: 'ignore',
    timeout: 120_000,
  });
  if (warm.status !== 0) {
    throw new Error('the bytegate command failed to load its modules');
  }
}
