import { accountLinkMessages, type VerifyEmailResponse } from '@bytegate/contracts/account-links';
import { messages } from '@bytegate/contracts/messages';
import {
  expireAccountTokens,
  getActiveUserByEmail,
  getActiveUserById,
  setVerifiedEmail,
  useAccountToken,
} from '@bytegate/db/queries';
import { revokeAccountAccess } from '../accounts/revoke-account-access.ts';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { hashLinkToken } from './link-tokens.ts';

/**
 * Follows a verification link, once. A link sent to the account's own address proves it; a link sent
 * to another address (a change of email) makes that address the account's, proven, unless another
 * account has taken it meanwhile (409 EMAIL_TAKEN, and the link still works should that account go).
 * A switch ends every other verification link of the account, so a link to the old address can never
 * switch it back. A switch also revokes every API key and every session but the one following the link
 * (`sessionId`, when it is the account's): the account now answers to another mailbox, and whatever
 * was handed out before is not that mailbox's owner's to keep. Unknown, used or expired links, and
 * those of deleted or disabled accounts, are 400 INVALID_LINK.
 */
export async function verifyEmail(
  ctx: ServiceContext,
  props: {
    token: string;
    /** The session of the request that follows the link, if any: kept through a change of email. */
    current?: { userId: string; sessionId: string } | null;
  },
): Promise<VerifyEmailResponse> {
  const tokenHash = hashLinkToken(props.token);
  return ctx.db.transaction(async (tx) => {
    const now = new Date();
    const link = await useAccountToken(tx, { tokenHash, purpose: 'email_verification', now });
    const user = link ? await getActiveUserById(tx, { userId: link.userId }) : null;
    if (!link || !user || user.disabledAt) {
      throw new DomainError('INVALID_LINK', accountLinkMessages.verificationLinkInvalid);
    }
    const isEmailChanged = link.email !== user.email;
    if (isEmailChanged) {
      const holder = await getActiveUserByEmail(tx, { email: link.email });
      if (holder && holder.id !== user.id) {
        throw new DomainError('EMAIL_TAKEN', messages.emailTaken);
      }
    }
    let updated: Awaited<ReturnType<typeof setVerifiedEmail>>;
    try {
      updated = await setVerifiedEmail(tx, { userId: user.id, email: link.email, now });
    } catch (error) {
      // Taken between the check and the update, by a sign-up racing this link.
      if (isUniqueViolation(error)) {
        throw new DomainError('EMAIL_TAKEN', messages.emailTaken);
      }
      throw error;
    }
    if (!updated) {
      throw new DomainError('INVALID_LINK', accountLinkMessages.verificationLinkInvalid);
    }
    if (isEmailChanged) {
      await expireAccountTokens(tx, { userId: user.id, purpose: 'email_verification', now });
      // A reset link went to the old address: it no longer reaches the account's owner.
      await expireAccountTokens(tx, { userId: user.id, purpose: 'password_reset', now });
      const revoked = await revokeAccountAccess(tx, {
        userId: user.id,
        now,
        exceptSessionId: props.current?.userId === user.id ? props.current.sessionId : undefined,
      });
      await recordActivity(tx, {
        userId: user.id,
        kind: 'email_changed',
        details: { email: updated.email, previousEmail: user.email, ...revoked },
      });
    } else if (!user.emailVerifiedAt) {
      await recordActivity(tx, {
        userId: user.id,
        kind: 'email_verified',
        details: { email: updated.email },
      });
    }
    return { email: updated.email, isEmailChanged };
  });
}

function isUniqueViolation(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if ((cause as { code?: unknown }).code === '23505') {
      return true;
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
