import { describe, expect, it } from 'vitest';
import { fuzzTargets } from './targets.ts';

/** The short pass of `npm test`: the corpus, then this many new inputs per target (`npm run fuzz` runs 1,000,000). */
const SHORT_RUNS = 20_000;
/** A seed to replay a failure with (each run draws a new one, printed when a target fails). */
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

describe('fuzz targets, short pass', () => {
  for (const target of fuzzTargets) {
    it(`${target.name}: the corpus and ${SHORT_RUNS} inputs hold every property`, { timeout: 60_000 }, () => {
      const result = target.run({
        runs: SHORT_RUNS,
        timeLimitMs: 30_000,
        ...(seed === undefined ? {} : { seed }),
      });
      expect(result.failure, `seed ${result.seed}`).toBeUndefined();
      expect(result.corpusInputs).toBeGreaterThan(0);
      // Interrupted by the time limit only on a machine far slower than ours.
      expect(result.inputs).toBeGreaterThan(SHORT_RUNS / 10);
    });
  }
});
