// `npm run agent:bundle`: the agent as one file that runs with Node alone (no npm install), for a
// partner to download and start with `node bytegate-agent.mjs --hub ... --token ...`.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = resolve(process.argv[2] ?? `${root}/dist/bytegate-agent.mjs`);
mkdirSync(dirname(outfile), { recursive: true });
await build({
  entryPoints: [`${root}/src/cli.ts`],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  banner: { js: '#!/usr/bin/env node' },
  legalComments: 'none',
  logLevel: 'warning',
});
console.log(`wrote ${outfile}`);
