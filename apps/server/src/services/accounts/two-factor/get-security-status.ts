import type { SecurityStatusResponse } from '@bytegate/contracts/two-factor';
import { getActiveUserById } from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { presentTwoFactorStatus } from './present-two-factor.ts';

/** How the account is protected, for User Settings' Security card (Google sign-in joins it later). */
export async function getSecurityStatus(
  ctx: ServiceContext,
  props: { userId: string },
): Promise<SecurityStatusResponse> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError('NOT_FOUND', 'No such account');
  }
  return { twoFactor: await presentTwoFactorStatus(ctx.db, user) };
}
