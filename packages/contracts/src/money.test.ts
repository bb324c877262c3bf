import { describe, expect, it } from 'vitest';
import {
  centsToDecimal,
  centsToDollars,
  decimalToCents,
  formatUsd,
  formatUsdGrouped,
  parseDollarsToCents,
} from './money.ts';

describe('formatUsd (was constants.ts)', () => {
  it('shows cents as dollars with two decimals and no thousands separator', () => {
    expect(formatUsd(499)).toBe('$4.99');
    expect(formatUsd(99)).toBe('$0.99');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(500)).toBe('$5.00');
    expect(formatUsd(123_456)).toBe('$1234.56');
    expect(formatUsd(-300)).toBe('$-3.00');
  });
});

describe('formatUsdGrouped (was render-invoice.ts usd)', () => {
  it('shows cents as dollars with two decimals and thousands separators', () => {
    expect(formatUsdGrouped(499)).toBe('$4.99');
    expect(formatUsdGrouped(0)).toBe('$0.00');
    expect(formatUsdGrouped(123_456)).toBe('$1,234.56');
    expect(formatUsdGrouped(100_000_000)).toBe('$1,000,000.00');
    expect(formatUsdGrouped(-300)).toBe('$-3.00');
  });
});

describe('centsToDollars (was billing.ts)', () => {
  it('gives a dollar number for JSON answers', () => {
    expect(centsToDollars(499)).toBe(4.99);
    expect(centsToDollars(10_000)).toBe(100);
    expect(centsToDollars(0)).toBe(0);
    expect(centsToDollars(-250)).toBe(-2.5);
    expect(centsToDollars(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER / 100);
  });
});

describe('centsToDecimal (was payments/provider.ts)', () => {
  it('gives the two-decimal string providers take', () => {
    expect(centsToDecimal(2500)).toBe('25.00');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(123_456)).toBe('1234.56');
    expect(centsToDecimal(0)).toBe('0.00');
  });
});

describe('decimalToCents (was payments/provider.ts)', () => {
  it('reads decimal strings and numbers, rounding down past two decimals', () => {
    expect(decimalToCents('25.00')).toBe(2500);
    expect(decimalToCents('25')).toBe(2500);
    expect(decimalToCents('25.5')).toBe(2550);
    expect(decimalToCents(' 25.50 ')).toBe(2550);
    expect(decimalToCents('25.009')).toBe(2500);
    expect(decimalToCents('0.999')).toBe(99);
    expect(decimalToCents(25)).toBe(2500);
    expect(decimalToCents(4.99)).toBe(499);
    expect(decimalToCents(0.1 + 0.2)).toBe(30);
    expect(decimalToCents('0')).toBe(0);
  });

  it('refuses signs, other shapes, other types and amounts beyond a safe integer of cents', () => {
    for (const value of [
      '-5',
      '+5',
      '',
      ' ',
      'abc',
      '1e3',
      '.5',
      '5.',
      '1,000',
      '$5',
      null,
      undefined,
      {},
      [],
      true,
    ]) {
      expect(decimalToCents(value), String(value)).toBeNull();
    }
    expect(decimalToCents(-5)).toBeNull();
    expect(decimalToCents(1e21)).toBeNull();
    expect(decimalToCents('90071992547409.91')).toBe(9_007_199_254_740_991);
    expect(decimalToCents('90071992547409.92')).toBeNull();
  });
});

describe('parseDollarsToCents (was services/billing/adjust-balance.ts)', () => {
  it('reads whole and decimal dollar amounts, signed', () => {
    expect(parseDollarsToCents('12.50')).toBe(1250);
    expect(parseDollarsToCents('12.5')).toBe(1250);
    expect(parseDollarsToCents('0.99')).toBe(99);
    expect(parseDollarsToCents('-3')).toBe(-300);
    expect(parseDollarsToCents('+7.05')).toBe(705);
    expect(parseDollarsToCents(' 4 ')).toBe(400);
    expect(parseDollarsToCents('0')).toBe(0);
    expect(parseDollarsToCents('999999999.99')).toBe(99_999_999_999);
  });

  it('refuses anything else: more than two decimals (nothing is rounded), ten dollar digits, other shapes', () => {
    for (const text of ['', 'abc', '1.234', '1e3', '$5', '1,000', '--1', '.5', '5.', '1000000000']) {
      expect(parseDollarsToCents(text), text).toBeNull();
    }
  });
});
