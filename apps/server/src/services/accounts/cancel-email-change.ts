import type { ProfileResponse } from '@bytegate/contracts/account';
import { expireAccountTokens, getActiveUserById } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { presentProfile } from './get-profile.ts';

/** Withdraws a pending change of email: its link stops working, and the account keeps its address. */
export async function cancelEmailChange(
  ctx: ServiceContext,
  props: { userId: string },
): Promise<ProfileResponse> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError('UNAUTHENTICATED', 'Your account no longer exists');
  }
  await expireAccountTokens(ctx.db, {
    userId: user.id,
    purpose: 'email_verification',
    exceptEmail: user.email,
    now: new Date(),
  });
  return presentProfile(ctx, user);
}
