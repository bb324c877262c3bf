import { accountLinkMessages } from '@bytegate/contracts/account-links';
import { getActiveUserById } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';

/**
 * Refuses money moving into or out of an account whose email is not proven yet, while
 * EMAIL_VERIFICATION is required: every top-up and purchase use case asks this first, whatever the way
 * in (dashboard, public API), so none can be forgotten. 403 EMAIL_NOT_VERIFIED says what to do.
 */
export async function requireVerifiedEmail(ctx: ServiceContext, props: { userId: string }): Promise<void> {
  if (ctx.config.emailVerification !== 'required') {
    return;
  }
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (user && user.emailVerifiedAt === null) {
    throw new DomainError('EMAIL_NOT_VERIFIED', accountLinkMessages.emailNotVerified);
  }
}
