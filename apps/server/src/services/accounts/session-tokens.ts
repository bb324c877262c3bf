import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new opaque bearer token: 32 random bytes, URL-safe. Only its hash is ever stored. */
export function createSessionToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashSessionToken(token) };
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The CSRF token of a session: an HMAC of a fixed label keyed by the session's own secret token, so it
 * is bound to that session, needs no storage, and reveals nothing of the token it came from.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('bytegate csrf v1').digest('base64url');
}

/** Compares a presented CSRF token with the session's in constant time. */
export function isCsrfTokenValid(sessionToken: string, presented: string | undefined): boolean {
  if (!presented) {
    return false;
  }
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
