import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { providerModes } from './providers.ts';

const cryptomus = { CRYPTOMUS_MERCHANT_ID: 'merchant', CRYPTOMUS_API_KEY: 'key' };
const bitcart = {
  BITCART_API_URL: 'https://pay.example/api',
  BITCART_TOKEN: 'token',
  BITCART_STORE_ID: 'store',
};
const modes = (env: Record<string, string>) => providerModes(loadConfig(env));

describe('which payment providers run, and how', () => {
  it('auto: both sandboxes on a fresh clone, none beside a real provider', () => {
    expect(modes({})).toEqual({ cryptomus: 'sandbox', bitcart: 'sandbox' });
    expect(modes(cryptomus)).toEqual({ cryptomus: 'live', bitcart: 'unavailable' });
    expect(modes(bitcart)).toEqual({ cryptomus: 'unavailable', bitcart: 'live' });
    expect(modes({ ...cryptomus, ...bitcart })).toEqual({ cryptomus: 'live', bitcart: 'live' });
  });

  it('on: a sandbox for each provider without credentials (development)', () => {
    expect(modes({ PAYMENTS_SANDBOX: 'on' })).toEqual({ cryptomus: 'sandbox', bitcart: 'sandbox' });
    expect(modes({ PAYMENTS_SANDBOX: 'on', ...cryptomus })).toEqual({
      cryptomus: 'live',
      bitcart: 'sandbox',
    });
  });

  it('off: never a sandbox', () => {
    expect(modes({ PAYMENTS_SANDBOX: 'off' })).toEqual({ cryptomus: 'unavailable', bitcart: 'unavailable' });
    expect(modes({ PAYMENTS_SANDBOX: 'off', ...bitcart })).toEqual({
      cryptomus: 'unavailable',
      bitcart: 'live',
    });
  });
});
