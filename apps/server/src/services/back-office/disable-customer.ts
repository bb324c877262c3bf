import { insertAuditEntry, revokeUserSessions, setUserDisabledAt } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { lockCustomer } from './lock-customer.ts';
import type { StaffActor } from './staff-actor.ts';

/**
 * Disables an account: it can no longer sign in, every session is revoked, and its plans stop at the
 * gateway (which re-reads touched plans every second and closes their open tunnels). Disabling a
 * disabled account changes nothing and records nothing. Staff cannot disable themselves.
 */
export async function disableCustomer(
  ctx: ServiceContext,
  props: { userId: string; reason: string; actor: StaffActor },
): Promise<void> {
  if (props.userId === props.actor.userId) {
    throw new DomainError('FORBIDDEN', 'You cannot disable your own account');
  }
  await ctx.db.transaction(async (tx) => {
    const user = await lockCustomer(tx, props.userId, props.actor);
    if (user.disabledAt) {
      return;
    }
    const now = new Date();
    await setUserDisabledAt(tx, { userId: user.id, disabledAt: now });
    const revokedSessions = await revokeUserSessions(tx, { userId: user.id, now });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'customer.disable',
      targetType: 'user',
      targetId: user.id,
      before: { status: 'active' },
      after: { status: 'disabled', revokedSessions },
      reason: props.reason,
    });
    await recordActivity(tx, { userId: user.id, kind: 'support_account_disabled', details: {} });
  });
}
