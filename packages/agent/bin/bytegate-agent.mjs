#!/usr/bin/env node
// The `bytegate-agent` command: the single-file bundle when it was built (npm run agent:bundle), else
// the TypeScript sources through tsx's loader, as in this repository.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/bytegate-agent.mjs', import.meta.url);
if (existsSync(bundle)) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
