// Type-checks every workspace with its own tsconfig (the web app has DOM types, the server Node's), two
// at a time: each tsc is one busy core for most of its run, and CI has two.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = [
  'apps/server',
  'e2e',
  'apps/web',
  'packages/gateway',
  'bench',
  'docs-tests',
  'packages/db',
  'packages/contracts',
  'packages/agent',
].filter((project) => existsSync(`${project}/tsconfig.json`));

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      // Printed whole when it ends, so two projects' errors never interleave.
      process.stdout.write(output);
      if (code !== 0) {
        console.error(`typecheck failed in ${project}`);
      }
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
const results = await Promise.all(
  [0, 1].map(async () => {
    let ok = true;
    for (let project = queue.shift(); project; project = queue.shift()) {
      ok = (await check(project)) && ok;
    }
    return ok;
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
