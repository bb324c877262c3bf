import { describe, expect, it } from 'vitest';
import { formatPointTime, stackedTops } from './time-series-chart.tsx';

describe('the time series chart', () => {
  it('stacks series point by point, a gap counting as nothing', () => {
    expect(
      stackedTops([
        [1, 2, null],
        [3, 0, 4],
        [5, 1, 1],
      ]),
    ).toEqual([
      [1, 2, 0],
      [4, 2, 4],
      [9, 3, 5],
    ]);
  });

  it('names a point’s time in UTC, by the hour or the day', () => {
    const at = Date.parse('2026-11-27T09:00:00Z');
    expect(formatPointTime(at, 'hour')).toBe('Nov 27, 09:00 UTC');
    expect(formatPointTime(at, 'day')).toBe('Nov 27');
  });
});
