import { describe, expect, it } from 'vitest';
import { formatBytes, initialView, queryOf, rangeOf } from './stats-view.ts';

const now = Date.parse('2026-11-27T10:20:00Z');

describe('the Statistics view', () => {
  it('ends a rolling period with the current hour or day', () => {
    const view = initialView(now);
    expect(rangeOf(view, now)).toEqual({ from: '2026-11-20T11:00:00.000Z', to: '2026-11-27T11:00:00.000Z' });
    expect(rangeOf({ ...view, period: '24h' }, now)).toEqual({
      from: '2026-11-26T11:00:00.000Z',
      to: '2026-11-27T11:00:00.000Z',
    });
    expect(rangeOf({ ...view, period: '90d', resolution: 'day' }, now)).toEqual({
      from: '2026-08-30T00:00:00.000Z',
      to: '2026-11-28T00:00:00.000Z',
    });
  });

  it('takes custom dates as whole UTC days, and says what is wrong with them', () => {
    const view = { ...initialView(now), period: 'custom' as const, resolution: 'day' as const };
    expect(rangeOf({ ...view, customFrom: '2026-11-01', customTo: '2026-11-03' }, now)).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-04T00:00:00.000Z',
    });
    expect(rangeOf({ ...view, customFrom: '2026-11-05', customTo: '2026-11-03' }, now)).toEqual({
      error: 'The end date comes before the start date.',
    });
    expect(rangeOf({ ...view, customFrom: '', customTo: '2026-11-03' }, now)).toEqual({
      error: 'Choose both dates.',
    });
    expect(
      rangeOf({ ...view, resolution: 'hour', customFrom: '2026-01-01', customTo: '2026-11-03' }, now),
    ).toEqual({ error: 'An hourly view spans at most 90 days: choose daily.' });
  });

  it('asks for a pool and a credential only when one is chosen', () => {
    const view = initialView(now);
    const range = { from: 'a', to: 'b' };
    expect(queryOf(view, range).toString()).toBe('from=a&to=b&resolution=hour');
    expect(queryOf({ ...view, pool: 'mobile', credential: 'user:x' }, range).toString()).toBe(
      'from=a&to=b&resolution=hour&pool=mobile&credential=user%3Ax',
    );
  });

  it('writes bytes in the unit that reads best', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5 GB');
    expect(formatBytes(123.456 * 1024 ** 2)).toBe('123.5 MB');
  });
});
