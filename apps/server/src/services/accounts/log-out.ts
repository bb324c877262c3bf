import { revokeSession } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../context.ts';

/** Revokes the session the request came with; the token stops working at once. */
export async function logOut(
  ctx: ServiceContext,
  props: { sessionId: string; userId: string; origin?: RequestOrigin },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await revokeSession(tx, { sessionId: props.sessionId, userId: props.userId, now: new Date() });
    await recordActivity(tx, { userId: props.userId, kind: 'signed_out', details: {}, origin: props.origin });
  });
}
