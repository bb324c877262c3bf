import { accountLinkMessages } from '@bytegate/contracts/account-links';
import { getActiveUserById, useAccountToken } from '@bytegate/db/queries';
import { hashLinkToken } from '../../account-links/link-tokens.ts';
import type { RequestOrigin, ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { beginSignIn, type SignInOutcome } from '../begin-sign-in.ts';

export interface SignInWithLinkProps {
  /** The token of the mailed link. */
  token: string;
  origin: RequestOrigin;
  /** A browser (cookie session): it gets the account's device cookie, so the lock no longer holds it. */
  isBrowser: boolean;
  deviceToken?: string | undefined;
}

/**
 * Follows a mailed sign-in link, once: the mailbox stands for the password, and the rest is any
 * sign-in's (`beginSignIn`): a disabled account is refused, two-factor asks for its code, the browser is
 * remembered as the account's, the activity feed says how. A link unknown, used, expired, sent to
 * another address than the account's now, or of a deleted account is 400 INVALID_LINK.
 */
export async function signInWithLink(
  ctx: ServiceContext,
  props: SignInWithLinkProps,
): Promise<SignInOutcome> {
  const invalid = new DomainError('INVALID_LINK', accountLinkMessages.signInLinkInvalid);
  // Used up in one statement: of two requests racing with the same link, one gets it.
  const link = await useAccountToken(ctx.db, {
    tokenHash: hashLinkToken(props.token),
    purpose: 'sign_in_link',
    now: new Date(),
  });
  const user = link ? await getActiveUserById(ctx.db, { userId: link.userId }) : null;
  if (!link || !user || user.email !== link.email) {
    throw invalid;
  }
  return beginSignIn(ctx, {
    user,
    method: 'email_link',
    isBrowser: props.isBrowser,
    origin: props.origin,
    deviceToken: props.deviceToken,
  });
}
