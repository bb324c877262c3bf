import type { SecurityStatusResponse } from '@bytegate/contracts/two-factor';
import { getActiveUserById } from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { isPasswordHash } from '../passwords.ts';
import { presentTwoFactorStatus } from './present-two-factor.ts';

/**
 * How the account is protected and signs in, for User Settings' Security card: two-factor, the Google
 * account linked (its email) and whether it has a password (one created with Google may not yet).
 */
export async function getSecurityStatus(
  ctx: ServiceContext,
  props: { userId: string },
): Promise<SecurityStatusResponse> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError('NOT_FOUND', 'No such account');
  }
  return {
    twoFactor: await presentTwoFactorStatus(ctx.db, user),
    google: user.googleSubject ? { email: user.googleEmail ?? '' } : null,
    hasPassword: isPasswordHash(user.passwordHash),
  };
}
