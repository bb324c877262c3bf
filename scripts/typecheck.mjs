// Type-checks every workspace with its own tsconfig (the web app has DOM types, the server Node's).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = [
  'packages/contracts',
  'packages/db',
  'packages/agent',
  'packages/gateway',
  'apps/server',
  'apps/web',
  'e2e',
  'docs-tests',
  'bench',
];
let failed = false;
for (const project of projects) {
  if (!existsSync(`${project}/tsconfig.json`)) {
    continue;
  }
  const result = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`typecheck failed in ${project}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
