// The report of bench:exits: a table of picks per size, case and mode (index and the old scan), memory
// per exit, the changes applied, and one PASS or MISS line per goal at the largest size.
import { loadavg } from 'node:os';
import { type BenchResult, CHANGES_PER_BATCH, GOALS } from './run.ts';

const count = (n: number) => n.toLocaleString('en-US');
const us = (value: number) =>
  value >= 1_000 ? `${(value / 1_000).toFixed(1)} ms` : `${value.toFixed(1)} µs`;
const verdict = (ok: boolean, text: string) => `${ok ? 'PASS' : 'MISS'} ${text}`;

export function report(result: BenchResult): string[] {
  const largest = Math.max(...result.memory.map((entry) => entry.size));
  const lines = [
    '',
    `# bench:exits: picking an exit (node ${process.version}, load average ${loadavg()[0]?.toFixed(1)})`,
    '',
    'Index: routing/exit-index.ts through pickExit/chooseExit; scan: the pick before it (linear-scan.ts).',
    `Sticky: ${count(1_000)} sessions, each bound on its first pick and found again after. Figures per`,
    "pick: the median of 5 rounds' p50 and p99 (the worst round's p99 in brackets). This process had",
    `${(result.cpuShare * 100).toFixed(0)}% of a CPU while picking at the largest size (other processes took the rest).`,
    '',
    '| exits | targeting | mode | index p50 | index p99 | scan p50 | scan p99 | scan picks |',
    '|---:|---|---|---:|---:|---:|---:|---:|',
    ...result.picks.map(
      (row) =>
        `| ${count(row.size)} | ${row.name} | ${row.mode} | ${us(row.index.p50)} | ` +
        `${us(row.index.p99)} (${us(row.index.worstP99)}) | ${us(row.scan.p50)} | ${us(row.scan.p99)} | ` +
        `${row.scan.picks} |`,
    ),
    '',
    'Memory: heap and array buffers after a full collection, per exit, loaded from inventory rows as the',
    'store loads them (direct exits; an upstream exit adds its parsed proxy URL).',
    '',
    '| exits | memory per exit | the Exit object and its id | the index | load from rows |',
    '|---:|---:|---:|---:|---:|',
    ...result.memory.map(
      (row) =>
        `| ${count(row.size)} | ${row.bytesPerExit.toFixed(0)} B | ${row.objectBytesPerExit.toFixed(0)} B | ` +
        `${(row.bytesPerExit - row.objectBytesPerExit).toFixed(0)} B | ${row.loadMs.toFixed(0)} ms |`,
    ),
    '',
  ];
  const worst = result.picks
    .filter((row) => row.size === largest)
    .reduce((a, b) => (b.index.p99 > a.index.p99 ? b : a));
  const memory = result.memory.find((row) => row.size === largest);
  const { applyMs, cpuMs, holdMs, loopDelayMaxMs, idleLoopDelayMaxMs, errors } = result.changes;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const holdMedian = median(holdMs);
  const { targetings, picks, errors: disagreements } = result.agreement;
  lines.push(
    verdict(
      worst.index.p99 < GOALS.pickP99Us,
      `pick p99 at ${count(largest)} exits under ${GOALS.pickP99Us} µs: worst ${us(worst.index.p99)} ` +
        `(${worst.name}, ${worst.mode}); the scan's p50 there ${us(worst.scan.p50)}`,
    ),
    verdict(
      (memory?.bytesPerExit ?? Infinity) < GOALS.bytesPerExit,
      `memory per exit at ${count(largest)} under ${GOALS.bytesPerExit} B: ${memory?.bytesPerExit.toFixed(0)} B ` +
        `(the Exit object and its id ${memory?.objectBytesPerExit.toFixed(0)} B, the index the rest)`,
    ),
    verdict(
      holdMedian < GOALS.holdMs && errors.length === 0,
      `applying ${count(CHANGES_PER_BATCH)} changed exits at ${count(largest)} holds the event loop under ` +
        `${GOALS.holdMs} ms at a time: longest slice ${holdMedian.toFixed(2)} ms (median of ${holdMs.length} ` +
        `batches, worst ${Math.max(...holdMs).toFixed(2)} ms); a batch takes ${median(applyMs).toFixed(1)} ms ` +
        `from start to end, ${median(cpuMs).toFixed(1)} ms of CPU; event-loop delay max ${loopDelayMaxMs.toFixed(1)} ms ` +
        `(${idleLoopDelayMaxMs.toFixed(1)} ms with nothing applied)` +
        (errors.length ? `; ${errors.length} exits wrong, first: ${errors[0]}` : ''),
    ),
    verdict(
      disagreements.length === 0,
      `index picks agree with the scan: ${count(targetings)} targetings, ${count(picks)} picks, ` +
        `${disagreements.length} disagreements${disagreements.length ? `, first: ${disagreements[0]}` : ''}`,
    ),
  );
  return lines;
}
