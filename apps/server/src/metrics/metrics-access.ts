import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an `Authorization` header carries the metrics bearer token. Compared as SHA-256 digests in
 * constant time, so neither the token's bytes nor its length leak through timing.
 */
export function hasMetricsToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +([^\s]+) *$/i.exec(authorization ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}
