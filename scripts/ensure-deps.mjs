// Installs the dependencies when they are missing or stale, with nothing but Node.
// Stale means package-lock.json changed since the last install (npm records its copy in node_modules).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const lock = 'package-lock.json';
const installed = 'node_modules/.package-lock.json';

function isFresh() {
  if (!existsSync(installed)) {
    return false;
  }
  const wanted = JSON.parse(readFileSync(lock, 'utf8')).packages ?? {};
  const have = JSON.parse(readFileSync(installed, 'utf8')).packages ?? {};
  for (const [path, entry] of Object.entries(wanted)) {
    // Workspace folders are linked, and optional packages are only there on their own platform.
    if (!path.includes('node_modules/') || entry.optional || entry.link) {
      continue;
    }
    if (have[path]?.version !== entry.version) {
      return false;
    }
  }
  return true;
}

if (!isFresh()) {
  console.log('Installing dependencies (npm ci)...');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    console.error('npm ci failed; see the output above.');
    process.exit(result.status ?? 1);
  }
}
