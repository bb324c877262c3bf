// `npm run clients`: the whole real-client matrix (packages/gateway/src/clients): curl, wget, the Node
// clients and Python's, through the real gateway on every path each supports. `npm test` runs its short part.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--project', 'gateway', 'packages/gateway/src/clients'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, CLIENTS_MATRIX: 'full' } },
);
process.exit(result.status ?? 1);
