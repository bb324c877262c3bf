import type { AdminPlan, AuditAction } from '@bytegate/contracts/admin';
import type { Transaction } from '@bytegate/db';
import {
  getActiveUserById,
  getProxySettings,
  insertAuditEntry,
  listPlanAllowlist,
  lockPlan,
  type PlanRow,
  setPlanThreadLimit,
  type UserRow,
} from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
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
    const { plan: locked } = await lockPlanForStaff(tx, props);
    if (locked.threadLimit === props.threadLimit) {
      return locked;
    }
    const changed = await writeThreadLimit(tx, {
      plan: locked,
      threadLimit: props.threadLimit,
      actor: props.actor,
      action: 'plan.threads.change',
      reason: props.reason,
    });
    await recordActivity(tx, {
      userId: locked.userId,
      kind: 'support_thread_limit_changed',
      details: {
        poolType: locked.poolType,
        threadLimit: changed.threadLimit,
        previousThreadLimit: locked.threadLimit,
      },
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

/**
 * In a transaction: locks a plan whose thread limit staff change, refusing support a staff member's
 * plan; answers it with its owner (null once the account is deleted). The owner is read, not locked:
 * purchases lock the account before the plan, never after it, so locking it here could deadlock.
 */
export async function lockPlanForStaff(
  tx: Transaction,
  props: { planId: string; actor: StaffActor },
): Promise<{ plan: PlanRow; owner: UserRow | null }> {
  const plan = await lockPlan(tx, { planId: props.planId });
  if (!plan) {
    throw new DomainError('NOT_FOUND', 'No such plan');
  }
  const owner = await getActiveUserById(tx, { userId: plan.userId });
  if (owner) {
    checkMayActOn(props.actor, owner);
  }
  return { plan, owner };
}

/**
 * In the transaction that locked the plan (`lockPlanForStaff`): sets its thread limit, which touches
 * `updated_at` so the gateway applies it within a second or two, and writes the audit entry: the limit
 * before and after, the owner, and whatever `before` and `after` add (a thread request's id).
 */
export async function writeThreadLimit(
  tx: Transaction,
  props: {
    plan: PlanRow;
    threadLimit: number;
    actor: StaffActor;
    action: AuditAction;
    reason: string;
    before?: Record<string, unknown>;
    after?: Record<string, unknown>;
  },
): Promise<PlanRow> {
  const { plan } = props;
  const changed = (await setPlanThreadLimit(tx, { planId: plan.id, threadLimit: props.threadLimit })) ?? plan;
  await insertAuditEntry(tx, {
    actorUserId: props.actor.userId,
    actorEmail: props.actor.email,
    action: props.action,
    targetType: 'plan',
    targetId: plan.id,
    before: { threadLimit: plan.threadLimit, userId: plan.userId, ...props.before },
    after: { threadLimit: changed.threadLimit, userId: plan.userId, ...props.after },
    reason: props.reason,
  });
  return changed;
}
