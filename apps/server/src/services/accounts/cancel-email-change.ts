import type { ProfileResponse } from '@bytegate/contracts/account';
import { expireAccountTokens, getActiveUserById } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
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
  await ctx.db.transaction(async (tx) => {
    const ended = await expireAccountTokens(tx, {
      userId: user.id,
      purpose: 'email_verification',
      exceptEmail: user.email,
      now: new Date(),
    });
    if (ended > 0) {
      await recordActivity(tx, { userId: user.id, kind: 'email_change_cancelled', details: {} });
    }
  });
  return presentProfile(ctx, user);
}
