import { insertAuditEntry, setUserDisabledAt } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { lockCustomer } from './lock-customer.ts';
import type { StaffActor } from './staff-actor.ts';

/**
 * Re-enables a disabled account: it may sign in again and its plans work again at the gateway within
 * a second or two. Enabling an active account changes nothing and records nothing.
 */
export async function enableCustomer(
  ctx: ServiceContext,
  props: { userId: string; reason: string; actor: StaffActor },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const user = await lockCustomer(tx, props.userId, props.actor);
    if (!user.disabledAt) {
      return;
    }
    await setUserDisabledAt(tx, { userId: user.id, disabledAt: null });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'customer.enable',
      targetType: 'user',
      targetId: user.id,
      before: { status: 'disabled', disabledAt: user.disabledAt.toISOString() },
      after: { status: 'active' },
      reason: props.reason,
    });
    await recordActivity(tx, { userId: user.id, kind: 'support_account_enabled', details: {} });
  });
}
