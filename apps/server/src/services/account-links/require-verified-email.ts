import { accountLinkMessages } from '@bytegate/contracts/account-links';
import { getActiveUserById } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';

/**
 * Refuses money moving into or out of an account whose email is not proven yet, while
 * EMAIL_VERIFICATION is required: every top-up and purchase use case asks this first, whatever the way
 * in (dashboard, public API), so none can be forgotten; so does minting an API key, which would outlive
 * a squatter's hold on someone else's address. 403 EMAIL_NOT_VERIFIED says what to do (`message`: the
 * words for what waits, top-ups and purchases by default).
 */
export async function requireVerifiedEmail(
  ctx: ServiceContext,
  props: { userId: string; message?: string },
): Promise<void> {
  if (ctx.config.emailVerification !== 'required') {
    return;
  }
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (user && user.emailVerifiedAt === null) {
    throw new DomainError('EMAIL_NOT_VERIFIED', props.message ?? accountLinkMessages.emailNotVerified);
  }
}
