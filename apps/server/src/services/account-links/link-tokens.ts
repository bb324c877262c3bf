import { createHash, randomBytes } from 'node:crypto';
import { ACCOUNT_LINK_PAGES } from '@bytegate/contracts/routes';

/** A new link token: 32 random bytes in base64url (43 characters). Only its SHA-256 is ever stored. */
export function createLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashLinkToken(token) };
}

/**
 * The stored form of a token. 256 random bits need no slow hash: nobody can guess one, and a leaked
 * table holds nothing a link could be made from.
 */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The web page a link opens, on the site's public origin, carrying its token. */
export function linkUrl(
  publicUrl: string,
  page: 'resetPassword' | 'verifyEmail' | 'signInLink',
  token: string,
): string {
  return `${publicUrl}${ACCOUNT_LINK_PAGES[page]}?token=${encodeURIComponent(token)}`;
}
