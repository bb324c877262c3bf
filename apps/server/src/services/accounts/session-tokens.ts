import { createHash, randomBytes } from 'node:crypto';

/** A new opaque bearer token: 32 random bytes, URL-safe. Only its hash is ever stored. */
export function createSessionToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashSessionToken(token) };
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
