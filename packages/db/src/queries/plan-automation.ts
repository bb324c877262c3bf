import { and, desc, eq, gte, inArray, isNotNull, ne, not, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import {
  autoBuyRules,
  autoBuyRuns,
  notificationSettings,
  planTrafficAlerts,
} from '../schema/notifications.ts';
import { plans } from '../schema/plans.ts';

export type PlanTrafficAlertRow = typeof planTrafficAlerts.$inferSelect;
export type AutoBuyRuleRow = typeof autoBuyRules.$inferSelect;
export type AutoBuyRunRow = typeof autoBuyRuns.$inferSelect;

const trafficLeft = sql`(${plans.trafficTotalBytes} - ${plans.trafficUsedBytes})`;

/** Whether a plan is under its alert's threshold: GB left under the bytes, or the share used reached. */
const isUnderAlert = sql<boolean>`(
  (${planTrafficAlerts.thresholdBytes} is not null and ${trafficLeft} < ${planTrafficAlerts.thresholdBytes})
  or (${planTrafficAlerts.thresholdPercent} is not null and ${plans.trafficTotalBytes} > 0
      and ${plans.trafficUsedBytes} * 100 >= ${planTrafficAlerts.thresholdPercent} * ${plans.trafficTotalBytes})
)`;

const isUnderAutoBuy = sql<boolean>`(${trafficLeft} < ${autoBuyRules.thresholdBytes})`;

export async function getPlanTrafficAlert(
  db: Executor,
  params: { userId: string; planId: string },
): Promise<PlanTrafficAlertRow | null> {
  const [row] = await db
    .select()
    .from(planTrafficAlerts)
    .where(and(eq(planTrafficAlerts.planId, params.planId), eq(planTrafficAlerts.userId, params.userId)));
  return row ?? null;
}

/**
 * Sets a plan's low-traffic alert. `isTriggered` is whether the plan is under the new threshold already:
 * then it does not fire now (the customer sees the plan's traffic as they set it) but after the next
 * purchase lifts the plan above it.
 */
export async function upsertPlanTrafficAlert(
  db: Executor,
  params: {
    userId: string;
    planId: string;
    thresholdBytes: number | null;
    thresholdPercent: number | null;
    isTriggered: boolean;
  },
): Promise<PlanTrafficAlertRow> {
  const { userId, planId, ...set } = params;
  const [row] = await db
    .insert(planTrafficAlerts)
    .values(params)
    .onConflictDoUpdate({
      target: planTrafficAlerts.planId,
      set: { ...set, triggeredAt: null, updatedAt: new Date() },
    })
    .returning();
  if (!row) {
    throw new Error('plan alert upsert returned no row');
  }
  return row;
}

export async function deletePlanTrafficAlert(
  db: Executor,
  params: { userId: string; planId: string },
): Promise<boolean> {
  const rows = await db
    .delete(planTrafficAlerts)
    .where(and(eq(planTrafficAlerts.planId, params.planId), eq(planTrafficAlerts.userId, params.userId)))
    .returning({ planId: planTrafficAlerts.planId });
  return rows.length > 0;
}

/** An alert that fired, with the plan it is about. */
export interface FiredTrafficAlert {
  userId: string;
  planId: string;
  poolType: string;
  trafficTotalBytes: number;
  trafficUsedBytes: number;
  thresholdBytes: number | null;
  thresholdPercent: number | null;
}

/**
 * Marks every alert of an active plan that is under its threshold and was not yet triggered, and
 * answers them: one statement, so an alert fires once per crossing whatever runs beside it (each row is
 * updated once; a second run finds it triggered). Call in the transaction that records the notices.
 */
export async function fireLowTrafficAlerts(
  db: Executor,
  params: { now: Date },
): Promise<FiredTrafficAlert[]> {
  return db
    .update(planTrafficAlerts)
    .set({ isTriggered: true, triggeredAt: params.now })
    .from(plans)
    .where(
      and(
        eq(plans.id, planTrafficAlerts.planId),
        eq(plans.isActive, true),
        eq(planTrafficAlerts.isTriggered, false),
        isUnderAlert,
      ),
    )
    .returning({
      userId: planTrafficAlerts.userId,
      planId: planTrafficAlerts.planId,
      poolType: plans.poolType,
      trafficTotalBytes: plans.trafficTotalBytes,
      trafficUsedBytes: plans.trafficUsedBytes,
      thresholdBytes: planTrafficAlerts.thresholdBytes,
      thresholdPercent: planTrafficAlerts.thresholdPercent,
    });
}

/** Re-arms the alerts of plans back above their threshold (a purchase): each fires again at the next crossing. */
export async function rearmLowTrafficAlerts(db: Executor): Promise<number> {
  const rows = await db
    .update(planTrafficAlerts)
    .set({ isTriggered: false, triggeredAt: null })
    .from(plans)
    .where(
      and(eq(plans.id, planTrafficAlerts.planId), eq(planTrafficAlerts.isTriggered, true), not(isUnderAlert)),
    )
    .returning({ planId: planTrafficAlerts.planId });
  return rows.length;
}

/** A low-balance alert that fired: the account's balance and its threshold. */
export interface FiredBalanceAlert {
  userId: string;
  balanceCents: number;
  thresholdCents: number;
}

/** As `fireLowTrafficAlerts`, for balances under the account's low-balance threshold. */
export async function fireLowBalanceAlerts(db: Executor): Promise<FiredBalanceAlert[]> {
  const rows = await db
    .update(notificationSettings)
    .set({ isBalanceLow: true })
    .from(users)
    .where(
      and(
        eq(users.id, notificationSettings.userId),
        sql`${users.deletedAt} is null`,
        isNotNull(notificationSettings.lowBalanceThresholdCents),
        eq(notificationSettings.isBalanceLow, false),
        sql`${users.balanceCents} < ${notificationSettings.lowBalanceThresholdCents}`,
      ),
    )
    .returning({
      userId: notificationSettings.userId,
      balanceCents: users.balanceCents,
      thresholdCents: notificationSettings.lowBalanceThresholdCents,
    });
  return rows.map((row) => ({ ...row, thresholdCents: row.thresholdCents ?? 0 }));
}

export async function rearmLowBalanceAlerts(db: Executor): Promise<number> {
  const rows = await db
    .update(notificationSettings)
    .set({ isBalanceLow: false })
    .from(users)
    .where(
      and(
        eq(users.id, notificationSettings.userId),
        eq(notificationSettings.isBalanceLow, true),
        sql`(${notificationSettings.lowBalanceThresholdCents} is null or ${users.balanceCents} >= ${notificationSettings.lowBalanceThresholdCents})`,
      ),
    )
    .returning({ userId: notificationSettings.userId });
  return rows.length;
}

// ---- Auto-buy ----

export async function getAutoBuyRule(
  db: Executor,
  params: { userId: string; planId: string },
): Promise<AutoBuyRuleRow | null> {
  const [row] = await db
    .select()
    .from(autoBuyRules)
    .where(and(eq(autoBuyRules.planId, params.planId), eq(autoBuyRules.userId, params.userId)));
  return row ?? null;
}

/** Sets a plan's auto-buy; a changed rule starts armed (it acts at the next check if under already). */
export async function upsertAutoBuyRule(
  db: Executor,
  params: {
    userId: string;
    planId: string;
    thresholdBytes: number;
    quantityGb: number;
    maxPerMonth: number;
    isEnabled: boolean;
  },
): Promise<AutoBuyRuleRow> {
  const { userId, planId, ...set } = params;
  const [row] = await db
    .insert(autoBuyRules)
    .values(params)
    .onConflictDoUpdate({
      target: autoBuyRules.planId,
      set: { ...set, status: 'armed', updatedAt: new Date() },
    })
    .returning();
  if (!row) {
    throw new Error('auto-buy upsert returned no row');
  }
  return row;
}

export async function deleteAutoBuyRule(
  db: Executor,
  params: { userId: string; planId: string },
): Promise<boolean> {
  const rows = await db
    .delete(autoBuyRules)
    .where(and(eq(autoBuyRules.planId, params.planId), eq(autoBuyRules.userId, params.userId)))
    .returning({ planId: autoBuyRules.planId });
  return rows.length > 0;
}

/**
 * Plans whose enabled auto-buy should act now: under the threshold, on an active plan of a live
 * account, and armed (or waiting for the balance or a new month, which it retries quietly).
 */
export async function listDueAutoBuyPlanIds(db: Executor, params: { limit: number }): Promise<string[]> {
  const rows = await db
    .select({ planId: autoBuyRules.planId })
    .from(autoBuyRules)
    .innerJoin(plans, eq(plans.id, autoBuyRules.planId))
    .innerJoin(users, eq(users.id, autoBuyRules.userId))
    .where(
      and(
        eq(autoBuyRules.isEnabled, true),
        inArray(autoBuyRules.status, ['armed', 'insufficient_balance', 'monthly_limit']),
        eq(plans.isActive, true),
        sql`${users.deletedAt} is null and ${users.disabledAt} is null`,
        isUnderAutoBuy,
      ),
    )
    .limit(params.limit);
  return rows.map((row) => row.planId);
}

/**
 * Locks one plan's rule for the run that acts on it, or answers null when another run holds it (it is
 * acting now) or the rule is gone: under this lock a crossing buys at most once.
 */
export async function lockAutoBuyRule(
  tx: Executor,
  params: { planId: string },
): Promise<AutoBuyRuleRow | null> {
  const [row] = await tx
    .select()
    .from(autoBuyRules)
    .where(eq(autoBuyRules.planId, params.planId))
    .for('update', { skipLocked: true });
  return row ?? null;
}

export async function setAutoBuyStatus(
  db: Executor,
  params: { planId: string; status: AutoBuyRuleRow['status'] },
): Promise<void> {
  await db.update(autoBuyRules).set({ status: params.status }).where(eq(autoBuyRules.planId, params.planId));
}

export async function insertAutoBuyRun(
  db: Executor,
  params: { planId: string; userId: string; outcome: AutoBuyRunRow['outcome']; orderId?: string | null },
): Promise<AutoBuyRunRow> {
  const [row] = await db.insert(autoBuyRuns).values(params).returning();
  if (!row) {
    throw new Error('auto-buy run insert returned no row');
  }
  return row;
}

/** Purchases a plan's auto-buy made since `since` (the start of the month). */
export async function countAutoBuysSince(
  db: Executor,
  params: { planId: string; since: Date },
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(autoBuyRuns)
    .where(
      and(
        eq(autoBuyRuns.planId, params.planId),
        eq(autoBuyRuns.outcome, 'bought'),
        gte(autoBuyRuns.createdAt, params.since),
      ),
    );
  return row?.count ?? 0;
}

export async function getLastAutoBuyRun(
  db: Executor,
  params: { planId: string },
): Promise<AutoBuyRunRow | null> {
  const [row] = await db
    .select()
    .from(autoBuyRuns)
    .where(eq(autoBuyRuns.planId, params.planId))
    .orderBy(desc(autoBuyRuns.createdAt))
    .limit(1);
  return row ?? null;
}

/** Re-arms the rules of plans back at or above their threshold (a purchase, a move of traffic). */
export async function rearmAutoBuyRules(db: Executor): Promise<number> {
  const rows = await db
    .update(autoBuyRules)
    .set({ status: 'armed' })
    .from(plans)
    .where(and(eq(plans.id, autoBuyRules.planId), ne(autoBuyRules.status, 'armed'), not(isUnderAutoBuy)))
    .returning({ planId: autoBuyRules.planId });
  return rows.length;
}
