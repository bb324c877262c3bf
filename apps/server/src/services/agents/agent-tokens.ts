import { createHash, randomBytes } from 'node:crypto';

/**
 * An agent's token: `bga_` and 32 random bytes (base64url). Only its SHA-256 is stored, and its first
 * characters (the prefix) to tell agents apart on screen; the token itself is shown once, when made.
 */
export function makeAgentToken(): { token: string; tokenHash: string; tokenPrefix: string } {
  const token = `bga_${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: hashAgentToken(token), tokenPrefix: token.slice(0, 10) };
}

export function hashAgentToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
