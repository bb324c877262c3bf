import type { CheckTopupResponse, Payment } from '@bytegate/contracts/admin-payments';
import { describe, expect, it } from 'vitest';
import { describeCheck } from './payment-labels.ts';

const payment = { credited: 12 } as Payment;
const answer = (overrides: Partial<CheckTopupResponse>): CheckTopupResponse => ({
  provider: { status: 'paid', outcome: 'success', amount: 12, paid: 12, payerPaid: null },
  result: 'credited',
  payment,
  ...overrides,
});

describe('what a provider check said, as staff read it', () => {
  it('says what arrived and what applying it did', () => {
    expect(describeCheck('Cryptomus', answer({}))).toBe(
      'Cryptomus says “paid”: paid, $12.00 arrived. Credited $12.00.',
    );
    expect(
      describeCheck(
        'Cryptomus',
        answer({
          provider: {
            status: 'wrong_amount',
            outcome: 'partial',
            amount: 40,
            paid: null,
            payerPaid: { currency: 'BTC', amount: '0.00033333' },
          },
          result: 'already-settled',
        }),
      ),
    ).toBe(
      'Cryptomus says “wrong_amount”: paid short, the payer sent 0.00033333 BTC (no USD amount). The order was settled before; nothing changed.',
    );
    expect(
      describeCheck(
        'Bitcart',
        answer({
          provider: { status: 'pending', outcome: 'pending', amount: 5, paid: null, payerPaid: null },
          result: 'pending',
        }),
      ),
    ).toBe('Bitcart says “pending”: not final yet. Still pending.');
  });
});
