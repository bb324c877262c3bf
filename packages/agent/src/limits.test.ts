import { describe, expect, it } from 'vitest';
import { isWithinHours, PartnerLimits, parseHours, settingsProblems, stricterSettings } from './limits.ts';

describe("a partner's limits", () => {
  it('read hours of the day, across midnight too', () => {
    expect(parseHours('8-23')).toEqual({ from: 8, to: 23 });
    expect(parseHours(' 22 - 6 ')).toEqual({ from: 22, to: 6 });
    expect(parseHours('0-24')).toEqual({ from: 0, to: 24 });
    for (const bad of ['', '5-5', '24-3', '8-25', '8', 'eight-ten', '8-23-1']) {
      expect(parseHours(bad), bad).toBeNull();
    }
    const night = parseHours('22-6') as { from: number; to: number };
    expect([21, 22, 23, 0, 5, 6].map((hour) => isWithinHours(night, hour))).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('say what is wrong with settings', () => {
    expect(settingsProblems({})).toEqual([]);
    expect(settingsProblems({ maxTunnels: 0, gbPerDay: -1, hours: 'always' })).toHaveLength(3);
    expect(settingsProblems({ maxTunnels: 2.5 })).toHaveLength(1);
  });

  it('take the stricter of the agent and the dashboard', () => {
    expect(stricterSettings({ maxTunnels: 10, gbPerDay: 5 }, { maxTunnels: 4, plainHttp: true })).toEqual({
      maxTunnels: 4,
      gbPerDay: 5,
      hours: null,
      plainHttp: true,
    });
    expect(
      stricterSettings({ plainHttp: false, hours: '8-20' }, { plainHttp: true, hours: '9-17' }),
    ).toMatchObject({
      plainHttp: false,
      hours: '9-17',
    });
  });

  it("refuse new tunnels past the limit, outside the hours, and once the day's GB are used", () => {
    let now = new Date(2026, 11, 2, 10, 0);
    const limits = new PartnerLimits(
      { maxTunnels: 2, gbPerDay: 1, hours: '8-20', plainHttp: false },
      () => now,
    );
    expect(limits.refusal('tunnel')).toBeNull();
    expect(limits.refusal('http')).toBe('plain-http');
    limits.tunnels = 2;
    expect(limits.refusal('tunnel')).toBe('busy');
    limits.tunnels = 0;
    limits.count(999_999_999);
    expect(limits.refusal('tunnel')).toBeNull();
    limits.count(1);
    expect(limits.refusal('tunnel')).toBe('daily-limit');
    // A new local day starts the count again.
    now = new Date(2026, 11, 3, 9, 0);
    expect(limits.carriedToday).toBe(0);
    expect(limits.refusal('tunnel')).toBeNull();
    now = new Date(2026, 11, 3, 21, 0);
    expect(limits.refusal('tunnel')).toBe('outside-hours');
  });
});
