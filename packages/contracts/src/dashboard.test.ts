import { describe, expect, it } from 'vitest';
import { lastUtcDays } from './dashboard.ts';

describe('lastUtcDays', () => {
  it('ends with the UTC day of the moment, across a month end', () => {
    expect(lastUtcDays(new Date('2026-03-02T23:30:00-05:00'), 4)).toEqual([
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
    ]);
  });
});
