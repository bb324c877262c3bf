// bench/exits: picking an exit at 10,000, 100,000 and 1,000,000 exits (issue 29's goals: p99 under
// 10 µs a pick at a million, under 300 bytes an exit, 1,000 changed exits applied without holding the
// event loop), against the linear scan the gateway did before, in the same process on the same exits.
// `npm run bench:exits` (about a minute; `--sizes 10000,100000` for fewer). Progress goes to stderr,
// the report to stdout.
import { report } from './report.ts';
import { runExitsBench } from './run.ts';

const flag = process.argv.indexOf('--sizes');
const sizes =
  flag >= 0 ? (process.argv[flag + 1] ?? '').split(',').map(Number) : [10_000, 100_000, 1_000_000];
if (sizes.some((size) => !Number.isInteger(size) || size < 1_000)) {
  process.stderr.write('--sizes takes whole numbers of exits from 1000, separated by commas\n');
  process.exit(1);
}

const started = performance.now();
const result = await runExitsBench({
  sizes,
  indexPicks: 20_000,
  // A scan pick costs tens of ms at a million: a few hundred in all there.
  scanPicks: (size) => (size >= 1_000_000 ? 25 : size >= 100_000 ? 100 : 500),
  changeBatches: 20,
  log: (line) => process.stderr.write(`${line}\n`),
});
const lines = report(result);
lines.push('', `(${((performance.now() - started) / 1000).toFixed(0)} s)`);
process.stdout.write(`${lines.join('\n')}\n`);
