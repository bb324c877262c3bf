import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { readBitcartWebhook } from './bitcart/bitcart-provider.ts';
import { readCryptomusWebhook } from './cryptomus/cryptomus-provider.ts';
import { cryptomusSign, phpJson } from './cryptomus/sign.ts';
import { createPaymentProviders, getLoopbackUrl, providerModes } from './providers.ts';

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

describe('the payment provider registry', () => {
  it('gives each running provider by name and by an order payment method, and null for the rest', () => {
    const registry = createPaymentProviders(loadConfig({ ...cryptomus, PAYMENTS_SANDBOX: 'off' }));
    expect(registry.get('cryptomus')?.name).toBe('cryptomus');
    expect(registry.get('cryptomus')?.isSandbox).toBe(false);
    expect(registry.get('bitcart')).toBeNull();
    expect(registry.find('cryptomus')?.displayName).toBe('Cryptomus');
    expect(registry.find('bitcart')).toBeNull();
    expect(registry.find('balance')).toBeNull();
    expect(registry.hasSandbox).toBe(false);
  });

  it('runs both sandboxes on a fresh clone, reached over loopback on the server port', () => {
    const registry = createPaymentProviders(loadConfig({ PORT: '8123', HOST: '0.0.0.0' }));
    expect(registry.hasSandbox).toBe(true);
    expect(registry.get('bitcart')?.isSandbox).toBe(true);
    expect(getLoopbackUrl({ host: '0.0.0.0', port: 8123 })).toBe('http://127.0.0.1:8123');
    expect(getLoopbackUrl({ host: '::1', port: 80 })).toBe('http://[::1]:80');
  });
});

describe('reading a webhook', () => {
  it('Cryptomus: checks the signature over the exact bytes and reads the claims either way', () => {
    const payload = { uuid: 'inv-1', order_id: 'ord-1', status: 'paid' };
    const signed = phpJson({ ...payload, sign: cryptomusSign(phpJson(payload), 'key') });
    expect(readCryptomusWebhook(signed, 'key')).toEqual({
      rawBody: signed,
      isSignatureValid: true,
      claimedInvoiceId: 'inv-1',
      claimedOrderId: 'ord-1',
      claimedStatus: 'paid',
    });
    expect(readCryptomusWebhook(signed, 'other key')).toMatchObject({
      isSignatureValid: false,
      claimedInvoiceId: 'inv-1',
    });
    expect(readCryptomusWebhook('not json', 'key')).toEqual({
      rawBody: 'not json',
      isSignatureValid: false,
      claimedInvoiceId: null,
      claimedOrderId: null,
      claimedStatus: null,
    });
  });

  it('Bitcart: unsigned, names an invoice and a status, each cut to size', () => {
    expect(readBitcartWebhook({ id: 'x'.repeat(80), status: 'complete' })).toEqual({
      rawBody: JSON.stringify({ id: 'x'.repeat(80), status: 'complete' }),
      isSignatureValid: null,
      claimedInvoiceId: 'x'.repeat(64),
      claimedOrderId: null,
      claimedStatus: 'complete',
    });
    expect(readBitcartWebhook(null)).toMatchObject({ rawBody: 'null', claimedInvoiceId: null });
  });
});
