import { createHash, timingSafeEqual } from 'node:crypto';

/** PHP's json_encode($v, JSON_UNESCAPED_UNICODE), which Cryptomus signs: compact, "/" escaped as "\/". */
export function phpJson(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/');
}

/** Cryptomus' request and webhook signature: md5(base64(body) + api key), lower-case hex. */
export function cryptomusSign(body: string, apiKey: string): string {
  return createHash('md5')
    .update(Buffer.from(body, 'utf8').toString('base64') + apiKey)
    .digest('hex');
}

/**
 * Checks a webhook body's `sign` field: the signature is over the body without `sign`, re-serialized
 * in PHP's style with the key order kept. Answers the payload without `sign`, or null.
 */
export function verifyCryptomusWebhook(rawBody: string, apiKey: string): Record<string, unknown> | null {
  let data: unknown;
  try {
    data = JSON.parse(rawBody);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return null;
  }
  const { sign, ...rest } = data as Record<string, unknown>;
  if (typeof sign !== 'string') {
    return null;
  }
  // The second form tolerates Cryptomus ever switching to unescaped slashes.
  for (const candidate of [phpJson(rest), JSON.stringify(rest)]) {
    const expected = cryptomusSign(candidate, apiKey);
    if (expected.length === sign.length && timingSafeEqual(Buffer.from(expected), Buffer.from(sign))) {
      return rest;
    }
  }
  return null;
}
