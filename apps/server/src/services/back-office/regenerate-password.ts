import type { AdminPlan } from '@bytegate/contracts/admin';
import {
  getActiveUserById,
  getProxySettings,
  insertAuditEntry,
  listPlanAllowlist,
  lockPlan,
} from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { regeneratePlanPassword } from '../plans/regenerate-plan-password.ts';
import { checkMayActOn } from './lock-customer.ts';
import { presentAdminPlan } from './present-back-office.ts';
import type { StaffActor } from './staff-actor.ts';

/**
 * Staff give a plan a new proxy password (a leaked one, a customer locked out of their dashboard):
 * the customer's own regenerate, so the old password is refused at once and the tunnels it opened
 * close within 2 s, with its audit entry in the same transaction. Staff never see the password: the
 * customer reads it in Proxy Setup.
 */
export async function regeneratePasswordAsStaff(
  ctx: ServiceContext,
  props: { planId: string; reason: string; actor: StaffActor },
): Promise<AdminPlan> {
  const plan = await ctx.db.transaction(async (tx) => {
    const locked = await lockPlan(tx, { planId: props.planId });
    if (!locked) {
      throw new DomainError('NOT_FOUND', 'No such plan');
    }
    // The owner is read, not locked: purchases lock the account before the plan, never after it.
    const owner = await getActiveUserById(tx, { userId: locked.userId });
    if (!owner || !locked.isActive) {
      throw new DomainError('CONFLICT', 'This plan is inactive: it has no password to replace');
    }
    checkMayActOn(props.actor, owner);
    await regeneratePlanPassword(
      { ...ctx, db: tx },
      { userId: owner.id, planId: locked.id, isByStaff: true },
    );
    await recordActivity(tx, {
      userId: owner.id,
      kind: 'support_proxy_password_regenerated',
      details: { poolType: locked.poolType },
    });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'plan.password.regenerate',
      targetType: 'plan',
      targetId: locked.id,
      // The passwords themselves are never logged.
      before: { userId: locked.userId },
      after: { password: 'replaced', userId: locked.userId },
      reason: props.reason,
    });
    return locked;
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
