import { googleMessages } from '@bytegate/contracts/google';
import { getActiveUserById, unlinkGoogleAccount } from '@bytegate/db/queries';
import { recordActivity } from '../../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';

/**
 * Unlinks the account's Google account ("Disconnect" in User Settings). Refused (409 CONFLICT) while
 * the account has no password: Google is then its only way in.
 */
export async function unlinkGoogle(
  ctx: ServiceContext,
  props: { userId: string; origin?: RequestOrigin },
): Promise<void> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user?.googleSubject) {
    throw new DomainError('CONFLICT', googleMessages.notLinked);
  }
  await ctx.db.transaction(async (tx) => {
    if (!(await unlinkGoogleAccount(tx, { userId: user.id }))) {
      throw new DomainError('CONFLICT', googleMessages.setPasswordFirst);
    }
    await recordActivity(tx, { userId: user.id, kind: 'google_unlinked', details: {}, origin: props.origin });
  });
}
