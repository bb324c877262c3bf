import { accountLinkMessages } from '@bytegate/contracts/account-links';
import {
  expireAccountTokens,
  getActiveUserById,
  getLiveAccountToken,
  updateUserPasswordHash,
  useAccountToken,
} from '@bytegate/db/queries';
import { hashPassword } from '../accounts/passwords.ts';
import { revokeAccountAccess } from '../accounts/revoke-account-access.ts';
import { recordActivity } from '../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { hashLinkToken } from './link-tokens.ts';

export interface ResetPasswordProps {
  /** The token of the mailed link. */
  token: string;
  /** Already held to the sign-up rules by the request schema. */
  password: string;
  origin?: RequestOrigin;
}

/**
 * Sets a new password with a mailed reset link, once: the link is used up, every session and every API
 * key of the account is revoked (whoever knew the old password, or held the account before its mailbox's
 * owner reclaimed it, is out; the activity feed says how many) and its other reset links stop working.
 * Proxy credentials are not touched. Nobody is signed in: the person signs in with the new
 * password, which also asks for a second factor where the account has one. A link that is unknown,
 * used, expired, for another address than the account's now, or of a deleted or disabled account is
 * 400 INVALID_LINK. Answers the account's email.
 */
export async function resetPassword(
  ctx: ServiceContext,
  props: ResetPasswordProps,
): Promise<{ email: string }> {
  const tokenHash = hashLinkToken(props.token);
  const invalid = new DomainError('INVALID_LINK', accountLinkMessages.resetLinkInvalid);
  // Looked at first, so a made-up token costs no password hashing.
  if (!(await getLiveAccountToken(ctx.db, { tokenHash, purpose: 'password_reset', now: new Date() }))) {
    throw invalid;
  }
  const passwordHash = await hashPassword(props.password);
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    // Used up in one statement: of two requests racing with the same link, one gets here.
    const link = await useAccountToken(tx, { tokenHash, purpose: 'password_reset', now });
    const user = link ? await getActiveUserById(tx, { userId: link.userId }) : null;
    if (!link || !user || user.disabledAt || user.email !== link.email) {
      throw invalid;
    }
    await updateUserPasswordHash(tx, { userId: user.id, passwordHash });
    const revoked = await revokeAccountAccess(tx, { userId: user.id, now });
    await expireAccountTokens(tx, { userId: user.id, purpose: 'password_reset', now });
    await recordActivity(tx, {
      userId: user.id,
      kind: 'password_reset',
      details: revoked,
      origin: props.origin,
    });
    return { email: user.email };
  });
}
