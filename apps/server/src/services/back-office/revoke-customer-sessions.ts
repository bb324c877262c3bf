import { insertAuditEntry, revokeUserSessions } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { lockCustomer } from './lock-customer.ts';
import type { StaffActor } from './staff-actor.ts';

/** Signs a customer out everywhere: every dashboard session is revoked at once. */
export async function revokeCustomerSessions(
  ctx: ServiceContext,
  props: { userId: string; reason: string; actor: StaffActor },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const user = await lockCustomer(tx, props.userId, props.actor);
    const revokedSessions = await revokeUserSessions(tx, { userId: user.id, now: new Date() });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'customer.sessions.revoke',
      targetType: 'user',
      targetId: user.id,
      before: { liveSessions: revokedSessions },
      after: { liveSessions: 0 },
      reason: props.reason,
    });
    await recordActivity(tx, { userId: user.id, kind: 'support_sessions_revoked', details: {} });
  });
}
