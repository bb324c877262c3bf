import { revokeSession } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';

/** Revokes the session the request came with; the token stops working at once. */
export async function logOut(
  ctx: ServiceContext,
  props: { sessionId: string; userId: string },
): Promise<void> {
  await revokeSession(ctx.db, { ...props, now: new Date() });
}
