import { describe, expect, it } from 'vitest';
import { type ExitTrafficSample, probeVerdict, trafficVerdicts } from './exit-health-rules.ts';

describe('probeVerdict', () => {
  const failed = (consecutiveFailures: number) => ({ isOk: false, consecutiveFailures, error: 'refused' });

  it('takes an exit in rotation out at the third failure in a row, not before', () => {
    expect(probeVerdict({ isInRotation: true }, failed(1))).toBeNull();
    expect(probeVerdict({ isInRotation: true }, failed(2))).toBeNull();
    expect(probeVerdict({ isInRotation: true }, failed(3))).toEqual({
      action: 'out',
      reason: '3 probes in a row failed: refused',
    });
    // Already out: failing more changes nothing.
    expect(probeVerdict({ isInRotation: false }, failed(7))).toBeNull();
  });

  it('puts an exit out of rotation back at its first success', () => {
    const ok = { isOk: true, consecutiveFailures: 0, error: null };
    expect(probeVerdict({ isInRotation: false }, ok)).toEqual({
      action: 'back',
      reason: 'A probe through the exit succeeded',
    });
    expect(probeVerdict({ isInRotation: true }, ok)).toBeNull();
  });
});

describe('trafficVerdicts', () => {
  const sample = (
    exitId: string,
    connects: number,
    failures: number,
    pool = 'datacenter',
  ): ExitTrafficSample => ({
    exitId,
    pool,
    isInRotation: true,
    connects,
    failures,
  });

  it('takes out an exit failing half its connections while the rest of its pool is fine', () => {
    expect(trafficVerdicts([sample('bad', 10, 10), sample('good', 40, 1)], new Set())).toEqual([
      { exitId: 'bad', reason: '50% of 20 connections failed in the last hour (the rest of the pool: 2%)' },
    ]);
  });

  it('waits for enough connections, on the exit and in the rest of its pool', () => {
    expect(trafficVerdicts([sample('bad', 5, 14), sample('good', 40, 0)], new Set())).toEqual([]);
    expect(trafficVerdicts([sample('bad', 0, 30), sample('good', 19, 0)], new Set())).toEqual([]);
    // The rest of another pool does not count.
    expect(trafficVerdicts([sample('bad', 0, 30), sample('good', 40, 0, 'mobile')], new Set())).toEqual([]);
  });

  it('leaves every exit in when the whole pool fails alike (the target, not the exits)', () => {
    expect(
      trafficVerdicts([sample('a', 10, 30), sample('b', 12, 28), sample('c', 9, 31)], new Set()),
    ).toEqual([]);
  });

  it('judges an exit put back in the last hour by probes only, and one out of rotation not at all', () => {
    const samples = [sample('bad', 0, 30), sample('good', 40, 0)];
    expect(trafficVerdicts(samples, new Set(['bad']))).toEqual([]);
    expect(
      trafficVerdicts([{ ...sample('bad', 0, 30), isInRotation: false }, sample('good', 40, 0)], new Set()),
    ).toEqual([]);
  });
});
