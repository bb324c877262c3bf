import { describe, expect, it } from 'vitest';
import { report } from './report.ts';
import { runExitsBench } from './run.ts';

// The short pass of bench:exits that runs with every test run: 10,000 exits, a few thousand picks,
// three batches of changes. Its timings say little on a shared machine; what must hold is that the
// index picks what the scan would, the changes land where they should, and the report has its lines.
// The figures are the full bench's (npm run bench:exits).

describe('bench:exits, a short pass', () => {
  it('picks what the scan picks, far faster, applies changes, and prints a verdict per goal', async () => {
    const result = await runExitsBench({
      sizes: [10_000],
      indexPicks: 2_000,
      scanPicks: () => 50,
      changeBatches: 3,
      log: () => undefined,
    });
    expect(result.agreement.errors).toEqual([]);
    expect(result.agreement.picks).toBeGreaterThan(10_000);
    expect(result.changes.errors).toEqual([]);
    expect(result.changes.applyMs).toHaveLength(3);
    expect(result.picks).toHaveLength(8);
    for (const row of result.picks) {
      // A scan of 10,000 exits against a bucket lookup: orders of magnitude apart, even on a busy machine.
      expect(row.index.p50, `${row.name} ${row.mode}`).toBeLessThan(row.scan.p50);
    }
    expect(result.memory[0]?.bytesPerExit).toBeGreaterThan(result.memory[0]?.objectBytesPerExit ?? Infinity);

    const verdicts = report(result).filter((line) => /^(PASS|MISS) /.test(line));
    expect(verdicts.map((line) => line.split(':')[0])).toEqual([
      expect.stringMatching(/^(PASS|MISS) pick p99 at 10,000 exits under 10 µs$/),
      expect.stringMatching(/^(PASS|MISS) memory per exit at 10,000 under 300 B$/),
      expect.stringMatching(
        /^(PASS|MISS) applying 1,000 changed exits at 10,000 holds the event loop under 1 ms/,
      ),
      'PASS index picks agree with the scan',
    ]);
  }, 120_000);
});
