import { describe, expect, it } from 'vitest';
import { parseDollarsToCents } from './adjust-balance.ts';

describe('parseDollarsToCents', () => {
  it('reads whole and decimal dollar amounts, signed', () => {
    expect(parseDollarsToCents('12.50')).toBe(1250);
    expect(parseDollarsToCents('12.5')).toBe(1250);
    expect(parseDollarsToCents('0.99')).toBe(99);
    expect(parseDollarsToCents('-3')).toBe(-300);
    expect(parseDollarsToCents('+7.05')).toBe(705);
  });

  it('refuses anything else', () => {
    for (const text of ['', 'abc', '1.234', '1e3', '$5', '1,000', '--1', '.5']) {
      expect(parseDollarsToCents(text), text).toBeNull();
    }
  });
});
