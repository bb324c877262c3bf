// Builds the web app when its build is missing or older than any of its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'apps/web/dist/.build-stamp');
const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/contracts/src',
  'package-lock.json',
];

function newestMtime(path) {
  if (!existsSync(path)) {
    return 0;
  }
  const stats = statSync(path);
  if (!stats.isDirectory()) {
    return stats.mtimeMs;
  }
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function isWebBuildFresh() {
  if (!existsSync(stamp)) {
    return false;
  }
  const built = statSync(stamp).mtimeMs;
  return sources.every((source) => newestMtime(join(root, source)) <= built);
}

export function ensureWebBuilt({ quiet = false } = {}) {
  if (isWebBuildFresh()) {
    return;
  }
  if (!quiet) {
    console.log('Building the web app...');
  }
  const result = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: join(root, 'apps/web'),
    // Always the production build: a test runner's NODE_ENV=test would otherwise bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: quiet ? 'pipe' : 'inherit',
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    if (quiet) {
      process.stderr.write(result.stdout ?? '');
      process.stderr.write(result.stderr ?? '');
    }
    throw new Error('The web app failed to build; see the output above.');
  }
  writeFileSync(stamp, new Date().toISOString());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureWebBuilt();
}
