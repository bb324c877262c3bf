import type { AdminPlan } from '@bytegate/contracts/admin';
import {
  getActiveUserById,
  getProxySettings,
  insertAuditEntry,
  listPlanAllowlist,
  lockPlan,
  setPlanThreadLimit,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { checkMayActOn } from './lock-customer.ts';
import { presentAdminPlan } from './present-back-office.ts';
import type { StaffActor } from './staff-actor.ts';

/**
 * Sets a plan's thread limit, with its audit entry in the same transaction. The plan's `updated_at`
 * moves with it, so a running gateway applies the new limit within a second or two. Setting the limit
 * it already has changes nothing and records nothing.
 */
export async function changeThreadLimit(
  ctx: ServiceContext,
  props: { planId: string; threadLimit: number; reason: string; actor: StaffActor },
): Promise<AdminPlan> {
  const plan = await ctx.db.transaction(async (tx) => {
    const locked = await lockPlan(tx, { planId: props.planId });
    if (!locked) {
      throw new DomainError('NOT_FOUND', 'No such plan');
    }
    // The owner is read, not locked: purchases lock the account before the plan, never after it.
    const owner = await getActiveUserById(tx, { userId: locked.userId });
    if (owner) {
      checkMayActOn(props.actor, owner);
    }
    if (locked.threadLimit === props.threadLimit) {
      return locked;
    }
    const changed =
      (await setPlanThreadLimit(tx, { planId: locked.id, threadLimit: props.threadLimit })) ?? locked;
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'plan.threads.change',
      targetType: 'plan',
      targetId: locked.id,
      before: { threadLimit: locked.threadLimit, userId: locked.userId },
      after: { threadLimit: changed.threadLimit, userId: locked.userId },
      reason: props.reason,
    });
    return changed;
  });
  const [settings, allowlist] = await Promise.all([
    getProxySettings(ctx.db, { planId: plan.id }),
    listPlanAllowlist(ctx.db, { planId: plan.id }),
  ]);
  return presentAdminPlan(
    plan,
    settings ?? null,
    allowlist.map((entry) => entry.address),
  );
}
