import { describe, expect, it } from 'vitest';
import type { GrammarAdapter } from './grammar.ts';
import { orderSources } from './route.ts';
import type { NetworkSource, SourceProbe } from './source.ts';
import { isHeldDownByProbes, PROBE_FAILURES_TO_HOLD_DOWN, SourceHealth } from './source-health.ts';

// How the source probe job's findings weigh in the routing beside real traffic: a network whose last
// probes failed goes last until a probe or a real connection through it works.

const adapter: GrammarAdapter = {
  name: 'template',
  cannotExpress: () => null,
  credentials: (account) => account,
  classify: () => 'failed',
};

const network = (id: string, fields: Partial<NetworkSource> = {}): NetworkSource => ({
  id,
  name: id,
  poolType: 'residential',
  kind: 'network',
  weight: 100,
  costPerGbCents: 120,
  state: 'active',
  endpoint: { protocol: 'http', host: '127.0.0.1', port: 7777 },
  account: { username: 'acct', password: 'secret' },
  adapter,
  ...fields,
});

const failing = (failuresInRow: number, failingSinceMs: number | null = 1_000): SourceProbe => ({
  failuresInRow,
  failingSinceMs,
});

describe('isHeldDownByProbes', () => {
  it.each([
    ['never probed', undefined, undefined, false],
    ['the last probe worked', failing(0, null), undefined, false],
    ['one failure is a blip', failing(1), undefined, false],
    [`${PROBE_FAILURES_TO_HOLD_DOWN} failures, no real traffic`, failing(2), undefined, true],
    ['many failures, real traffic opened before the run began', failing(5), 999, true],
    ['failures, but a real connection opened since the run began', failing(5), 1_001, false],
    ['failures, a real connection opened as the run began', failing(2), 1_000, false],
  ])('%s: %s', (_, probe, lastOpenedAtMs, isHeld) => {
    expect(isHeldDownByProbes(probe, lastOpenedAtMs)).toBe(isHeld);
  });
});

describe('SourceHealth with probes', () => {
  it('holds a failing network down until a real dial through it opens, and again on a new run', () => {
    let now = 10_000;
    const health = new SourceHealth(() => now);
    const source = network('n', { probe: failing(2, 5_000) });
    expect(health.isHeldDown(source)).toBe(true);
    // A customer's dial that fails changes nothing; one that opens (any country) clears the hold.
    health.failed('n', 'US');
    expect(health.isHeldDown(source)).toBe(true);
    health.opened('n', 'DE', 80);
    expect(health.isHeldDown(source)).toBe(false);
    // The probe job then sees a new run of failures that began after that dial: held again.
    now += 120_000;
    expect(health.isHeldDown({ ...source, probe: failing(2, now - 60_000) })).toBe(true);
    // A probe that works ends the run.
    expect(health.isHeldDown({ ...source, probe: failing(0, null) })).toBe(false);
  });
});

describe('orderSources with probes', () => {
  const down = failing(3, 1_000);

  it('tries a held-down network after every other, whatever its weight', () => {
    const health = new SourceHealth(() => 2_000);
    const sources = [
      network('heavy-down', { weight: 100_000, probe: down }),
      network('light', { weight: 1 }),
    ];
    for (let i = 0; i < 50; i++) {
      expect(orderSources(sources, {}, health, 'weight').map((source) => source.id)).toEqual([
        'light',
        'heavy-down',
      ]);
    }
  });

  it('tries a held-down network after every other when cost is the preference, however cheap', () => {
    const health = new SourceHealth(() => 2_000);
    const sources = [
      network('cheap-down', { costPerGbCents: 10, probe: down }),
      network('dear', { costPerGbCents: 900 }),
      network('mid', { costPerGbCents: 300 }),
    ];
    expect(orderSources(sources, {}, health, 'cost').map((source) => source.id)).toEqual([
      'mid',
      'dear',
      'cheap-down',
    ]);
    // Once a real connection through it opened, it is the cheapest again.
    health.opened('cheap-down', '*', 40);
    expect(orderSources(sources, {}, health, 'cost').map((source) => source.id)).toEqual([
      'cheap-down',
      'mid',
      'dear',
    ]);
  });
});
