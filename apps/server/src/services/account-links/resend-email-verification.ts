import { accountLinkMessages } from '@bytegate/contracts/account-links';
import { getActiveUserById } from '@bytegate/db/queries';
import type { MailContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { sendEmailVerification } from './send-email-verification.ts';

/**
 * "Resend verification email": a new link to the account's address, sent before the answer so that a
 * mail server that fails is told (503, and the person may try again). An address already verified is
 * a 409 CONFLICT. Answers the address.
 */
export async function resendEmailVerification(
  ctx: MailContext,
  props: { userId: string },
): Promise<{ email: string }> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError('UNAUTHENTICATED', 'Your account no longer exists');
  }
  if (user.emailVerifiedAt) {
    throw new DomainError('CONFLICT', accountLinkMessages.alreadyVerified);
  }
  try {
    await sendEmailVerification(ctx, { user });
  } catch {
    // The mailer logged why; the person is told in words they can act on.
    throw new DomainError('UPSTREAM_UNAVAILABLE', accountLinkMessages.mailNotSent(user.email));
  }
  return { email: user.email };
}
