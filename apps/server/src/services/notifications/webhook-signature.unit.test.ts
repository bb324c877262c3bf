import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createWebhookSecret, isSignatureValid, signatureHeader } from './webhook-signature.ts';

describe('webhook signatures', () => {
  const secret = 'whsec_test-secret';
  const body = '{"id":"n1","type":"test","created_at":"2026-11-27T00:00:00.000Z","data":{"message":"hi"}}';

  it('signs HMAC-SHA256 over "<t>.<body>" in hex, as the Help Center documents it', () => {
    const expected = createHmac('sha256', secret).update(`1764201600.${body}`).digest('hex');
    expect(signatureHeader(secret, 1764201600, body)).toBe(`t=1764201600,v1=${expected}`);
  });

  it('accepts its own signature within 5 minutes, and nothing else', () => {
    const header = signatureHeader(secret, 1000, body);
    expect(isSignatureValid({ secret, header, body, nowSeconds: 1000 })).toBe(true);
    expect(isSignatureValid({ secret, header, body, nowSeconds: 1300 })).toBe(true);
    expect(isSignatureValid({ secret, header, body, nowSeconds: 700 })).toBe(true);
    expect(isSignatureValid({ secret, header, body, nowSeconds: 1301 })).toBe(false);
    expect(isSignatureValid({ secret: 'whsec_other', header, body, nowSeconds: 1000 })).toBe(false);
    expect(isSignatureValid({ secret, header, body: body.replace('hi', 'ho'), nowSeconds: 1000 })).toBe(
      false,
    );
    // A signature moved to another time is not valid for it.
    expect(
      isSignatureValid({ secret, header: header.replace('t=1000', 't=1001'), body, nowSeconds: 1000 }),
    ).toBe(false);
    for (const broken of [undefined, '', 't=1000', 'v1=abc', `t=x,v1=${'a'.repeat(64)}`, 't=1000,v1=zz']) {
      expect(isSignatureValid({ secret, header: broken, body, nowSeconds: 1000 })).toBe(false);
    }
  });

  it('makes secrets of 32 random bytes after whsec_', () => {
    const one = createWebhookSecret();
    expect(one).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(createWebhookSecret()).not.toBe(one);
  });
});
