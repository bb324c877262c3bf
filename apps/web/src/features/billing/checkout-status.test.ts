import { describe, expect, it } from 'vitest';
import { describeCheckoutStatus } from './checkout-status.ts';

describe('describeCheckoutStatus', () => {
  it('says each provider word in words a person understands, whatever its case', () => {
    expect(describeCheckoutStatus('check')).toBe('Waiting for your payment');
    expect(describeCheckoutStatus('PENDING')).toBe('Waiting for your payment');
    expect(describeCheckoutStatus('confirm_check')).toBe(
      'Payment received, waiting for the network to confirm it',
    );
    expect(describeCheckoutStatus('CONFIRMING')).toBe(
      'Payment received, waiting for the network to confirm it',
    );
    expect(describeCheckoutStatus('wrong_amount_waiting')).toBe(
      'Part of the amount arrived; waiting for the rest',
    );
    expect(describeCheckoutStatus('EXPIRED')).toBe('Invoice expired');
    expect(describeCheckoutStatus('cancel')).toBe('Invoice expired');
    expect(describeCheckoutStatus('review')).toBe('Paid short: held for a person to check');
  });

  it('never shows a word it does not know', () => {
    expect(describeCheckoutStatus('something_new')).toBe('Checking the payment');
  });
});
