import { describe, expect, it } from 'vitest';
import { cryptomusSign, phpJson, verifyCryptomusWebhook } from './sign.ts';

describe('Cryptomus signatures', () => {
  // Expected values computed independently (Python: json.dumps(ensure_ascii=False) with "/" escaped, base64, md5).
  it('serializes like PHP json_encode with JSON_UNESCAPED_UNICODE and signs md5(base64(body) + key)', () => {
    const body = phpJson({ amount: '15.00', currency: 'USD', additional_data: 'https://t.me/x Привет' });
    expect(body).toBe('{"amount":"15.00","currency":"USD","additional_data":"https:\\/\\/t.me\\/x Привет"}');
    expect(cryptomusSign(body, 'uK3yP4ymentKey')).toBe('54b7c4a3a196ce93138d16ac1f111fbd');
    expect(cryptomusSign('{}', 'k')).toBe('17cc27615060579b99f3d5921adfeceb');
  });

  it('accepts a webhook signed over the PHP-style body, slashes and all', () => {
    const payload = { type: 'payment', uuid: 'u-1', order_id: 'o-1', status: 'paid', additional_data: 'a/b' };
    const sign = cryptomusSign(phpJson(payload), 'secret');
    const raw = JSON.stringify({ ...payload, sign });
    expect(verifyCryptomusWebhook(raw, 'secret')).toEqual(payload);
  });

  it('refuses a wrong key, a tampered field, a missing sign and junk', () => {
    const payload = { uuid: 'u-1', order_id: 'o-1', status: 'paid', amount: '10.00' };
    const sign = cryptomusSign(phpJson(payload), 'secret');
    expect(verifyCryptomusWebhook(JSON.stringify({ ...payload, sign }), 'other')).toBeNull();
    expect(
      verifyCryptomusWebhook(JSON.stringify({ ...payload, amount: '99.00', sign }), 'secret'),
    ).toBeNull();
    expect(verifyCryptomusWebhook(JSON.stringify(payload), 'secret')).toBeNull();
    expect(verifyCryptomusWebhook('not json', 'secret')).toBeNull();
    expect(verifyCryptomusWebhook('[1,2]', 'secret')).toBeNull();
  });
});
