import { describe, expect, it } from 'vitest';
import { paymentsBannerLine } from './payments-banner.ts';

describe('the start-up banner’s payments line', () => {
  it('says loudly when payments are simulated', () => {
    expect(paymentsBannerLine({ cryptomus: 'sandbox', bitcart: 'sandbox' })).toBe(
      'Payments: TEST MODE: payments are simulated (Cryptomus and Bitcart sandbox)',
    );
    expect(paymentsBannerLine({ cryptomus: 'live', bitcart: 'sandbox' })).toBe(
      'Payments: Cryptomus live; TEST MODE: payments are simulated (Bitcart sandbox)',
    );
  });

  it('names a provider that is unavailable, and says nothing of test mode when none is simulated', () => {
    expect(paymentsBannerLine({ cryptomus: 'live', bitcart: 'unavailable' })).toBe(
      'Payments: Cryptomus live; Bitcart unavailable (no credentials)',
    );
  });
});
