// `npm start`: builds what is not built, then runs `bytegate start` in this same process.
import { ensureWebBuilt } from './build-web.mjs';

try {
  await ensureWebBuilt();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
process.argv = [process.argv[0], 'bytegate', 'start', ...process.argv.slice(2)];
await import('../apps/server/bin/bytegate.mjs');
