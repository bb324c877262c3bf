import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (docs/api.md "Notifications"; Help Center "Webhooks"): every POST carries
 * `Bytegate-Signature: t=<unix seconds>,v1=<hex>`, where the hex is HMAC-SHA256 with the endpoint's
 * secret over `<t>.<the raw body>`. A receiver recomputes it, compares in constant time and refuses a
 * `t` more than 5 minutes away from its clock, so a captured request cannot be replayed later.
 */

export const SIGNATURE_HEADER = 'Bytegate-Signature';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** How far a receiver should let `t` be from its own clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export function createWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function signatureOf(secret: string, timestampSeconds: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
}

/** The header's value for a body sent at `timestampSeconds`. */
export function signatureHeader(secret: string, timestampSeconds: number, body: string): string {
  return `t=${timestampSeconds},v1=${signatureOf(secret, timestampSeconds, body)}`;
}

/**
 * The receiver's check, as the Help Center documents it: true when the header carries a `v1` made with
 * this secret over this very body, at a `t` within the tolerance of `nowSeconds`.
 */
export function isSignatureValid(props: {
  secret: string;
  header: string | undefined;
  body: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): boolean {
  const parts = new Map(
    (props.header ?? '').split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) {
    return false;
  }
  if (Math.abs(props.nowSeconds - timestamp) > (props.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) {
    return false;
  }
  const expected = Buffer.from(signatureOf(props.secret, timestamp, props.body), 'hex');
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
