import { describe, expect, it } from 'vitest';
import { readRatePerGb } from './partner-rates.ts';

describe("partners' rate per GB as the operator writes it", () => {
  it('reads dollars and cents into whole cents', () => {
    expect(readRatePerGb('0.35')).toBe(35);
    expect(readRatePerGb('2')).toBe(200);
    expect(readRatePerGb('1.5')).toBe(150);
    expect(readRatePerGb(' $12.05 ')).toBe(1205);
    expect(readRatePerGb('0')).toBe(0);
  });

  it('refuses what is not an amount of dollars and cents', () => {
    for (const bad of ['', 'abc', '-1', '0.355', '1,50', '1e3', '12.5x', '.5', '1234567']) {
      expect(readRatePerGb(bad), bad).toBeNull();
    }
  });
});
