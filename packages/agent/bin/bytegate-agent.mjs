#!/usr/bin/env node
// The `bytegate-agent` command: the TypeScript sources through tsx's loader where tsx is installed (this
// repository), else the single-file bundle built by `npm run agent:bundle` (a package without tsx).
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  register = undefined;
}
if (register) {
  register();
  await import('../src/cli.ts');
} else {
  await import('../dist/bytegate-agent.mjs');
}
