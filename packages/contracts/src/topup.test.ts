import { describe, expect, it } from 'vitest';
import { topupAmountSchema } from './topup.ts';

const parse = (value: unknown) => topupAmountSchema.safeParse(value);

describe('top-up amount', () => {
  it('reads dollars with up to two decimals into cents', () => {
    expect(parse('5').data).toBe(500);
    expect(parse('10.5').data).toBe(1050);
    expect(parse('25.99').data).toBe(2599);
    expect(parse(' 100. ').data).toBe(10000);
    expect(parse(12.25).data).toBe(1225);
  });

  it("says 'Please enter a valid amount' for empty or non-numeric input", () => {
    for (const value of ['', 'abc', '1e3', '-5', '5.001', '$5', '5,00', null, Number.NaN]) {
      expect(parse(value).error?.issues[0]?.message, String(value)).toBe('Please enter a valid amount');
    }
  });

  it("says 'Minimum top-up amount is $5.00' below 5", () => {
    expect(parse('4.99').error?.issues[0]?.message).toBe('Minimum top-up amount is $5.00');
    expect(parse('0').error?.issues[0]?.message).toBe('Minimum top-up amount is $5.00');
  });

  it('has an upper bound', () => {
    expect(parse('10000').success).toBe(true);
    expect(parse('10000.01').error?.issues[0]?.message).toBe('Maximum top-up amount is $10,000.00');
  });
});
