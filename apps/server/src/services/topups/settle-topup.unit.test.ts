import { describe, expect, it } from 'vitest';
import { paidUsdCents } from '../../payments/cryptomus/cryptomus-provider.ts';
import type { InvoiceSnapshot } from '../../payments/provider.ts';
import { creditForSnapshot } from './settle-topup.ts';

const snapshot = (overrides: Partial<InvoiceSnapshot>): InvoiceSnapshot => ({
  invoiceId: 'inv',
  orderId: 'order',
  rawStatus: 'wrong_amount',
  outcome: 'partial',
  currency: 'USD',
  amountCents: 3000,
  paidCents: null,
  checkoutUrl: '',
  expiresAt: null,
  ...overrides,
});

describe('what a settled invoice credits', () => {
  it('credits the invoice amount when paid in full or over', () => {
    expect(creditForSnapshot(snapshot({ outcome: 'success', paidCents: 9999 }))).toBe(3000);
  });

  it('credits the USD that arrived when paid short, never more than the invoice', () => {
    expect(creditForSnapshot(snapshot({ paidCents: 1500 }))).toBe(1500);
    expect(creditForSnapshot(snapshot({ paidCents: 4000 }))).toBe(3000);
  });

  it('answers null (manual review) for a short payment with no USD figure', () => {
    expect(creditForSnapshot(snapshot({ paidCents: null }))).toBeNull();
  });

  it('credits nothing for failed invoices', () => {
    expect(creditForSnapshot(snapshot({ outcome: 'failed' }))).toBe(0);
  });
});

describe("Cryptomus' USD figure of a payment", () => {
  it('reads payment_amount_usd only, never the coin amount', () => {
    expect(paidUsdCents({ payment_amount_usd: '15.00' })).toBe(1500);
    expect(paidUsdCents({ payment_amount_usd: null })).toBeNull();
    expect(paidUsdCents({})).toBeNull();
    // "0.00" is what Cryptomus sends where it did not convert (P2P): no figure, not a zero payment.
    expect(paidUsdCents({ payment_amount_usd: '0.00' })).toBeNull();
  });
});
