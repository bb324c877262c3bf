import type { SourceProbe } from '@bytegate/contracts/admin-supply';
import { describe, expect, it } from 'vitest';
import { agoText, sourceProbeText } from './source-probe-text.ts';

const now = new Date('2026-12-02T12:00:00Z');
const probe = (fields: Partial<SourceProbe>): SourceProbe => ({
  checkedAt: '2026-12-02T11:59:20Z',
  isOk: true,
  connectMs: 120,
  error: null,
  exitIp: '203.0.113.7',
  consecutiveFailures: 0,
  isHeldDown: false,
  ...fields,
});

describe('sourceProbeText', () => {
  it.each([
    ['our own exits', 'exits', null, ''],
    ['a network not probed yet', 'network', null, 'not yet'],
    ['a probe that worked', 'network', probe({}), 'ok, 120 ms, 40 s ago'],
    [
      'one failure',
      'network',
      probe({ isOk: false, connectMs: null, consecutiveFailures: 1 }),
      'failed, 40 s ago',
    ],
    [
      'failures that hold it down',
      'network',
      probe({ isOk: false, consecutiveFailures: 3, isHeldDown: true }),
      'failed 3x, 40 s ago, tried last',
    ],
    [
      'a failure not counted (the target was down)',
      'network',
      probe({ isOk: false, consecutiveFailures: 0 }),
      'failed, 40 s ago',
    ],
  ] as const)('%s', (_, kind, last, text) => {
    expect(sourceProbeText(kind, last, now)).toBe(text);
  });

  it('says how long ago in seconds, minutes, hours and days', () => {
    const ago = (ms: number) => agoText(new Date(now.getTime() - ms), now);
    expect([ago(5_000), ago(150_000), ago(3 * 3600_000 + 5), ago(49 * 3600_000), ago(-2000)]).toEqual([
      '5 s ago',
      '2 min ago',
      '3 h ago',
      '2 d ago',
      '0 s ago',
    ]);
  });
});
