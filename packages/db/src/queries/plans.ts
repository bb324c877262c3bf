import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { plans } from '../schema/plans.ts';

export type PlanRow = typeof plans.$inferSelect;
export type NewPlan = typeof plans.$inferInsert;

/** Locks and answers the user's plan for a pool, inside a transaction. */
export async function lockPlanForPool(
  tx: Executor,
  params: { userId: string; poolType: PlanRow['poolType'] },
): Promise<PlanRow | null> {
  const [row] = await tx
    .select()
    .from(plans)
    .where(and(eq(plans.userId, params.userId), eq(plans.poolType, params.poolType)))
    .for('update');
  return row ?? null;
}

export async function createPlan(tx: Executor, params: NewPlan): Promise<PlanRow> {
  const [row] = await tx.insert(plans).values(params).returning();
  if (!row) {
    throw new Error('plan insert returned no row');
  }
  return row;
}

/** Adds bought traffic to a plan (and reactivates it). */
export async function addPlanTraffic(
  tx: Executor,
  params: { planId: string; userId: string; bytes: number; label?: string | undefined },
): Promise<PlanRow> {
  const [row] = await tx
    .update(plans)
    .set({
      trafficTotalBytes: sql`${plans.trafficTotalBytes} + ${params.bytes}`,
      isActive: true,
      ...(params.label ? { label: params.label } : {}),
    })
    .where(and(eq(plans.id, params.planId), eq(plans.userId, params.userId)))
    .returning();
  if (!row) {
    throw new Error(`no plan ${params.planId} to add traffic to`);
  }
  return row;
}

export async function listActivePlans(db: Executor, params: { userId: string }): Promise<PlanRow[]> {
  return db
    .select()
    .from(plans)
    .where(and(eq(plans.userId, params.userId), eq(plans.isActive, true)))
    .orderBy(asc(plans.createdAt));
}

export async function getActivePlanForPool(
  db: Executor,
  params: { userId: string; poolType: PlanRow['poolType'] },
): Promise<PlanRow | null> {
  const [row] = await db
    .select()
    .from(plans)
    .where(
      and(eq(plans.userId, params.userId), eq(plans.poolType, params.poolType), eq(plans.isActive, true)),
    )
    .limit(1);
  return row ?? null;
}

/** A user's plan by id; another user's plan (or a malformed id) is not found. */
export async function getPlanById(
  db: Executor,
  params: { userId: string; planId: string },
): Promise<PlanRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(params.planId)) {
    return null;
  }
  const [row] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.id, params.planId), eq(plans.userId, params.userId)))
    .limit(1);
  return row ?? null;
}

export async function deactivateUserPlans(tx: Executor, params: { userId: string }): Promise<void> {
  await tx.update(plans).set({ isActive: false }).where(eq(plans.userId, params.userId));
}

/**
 * Gives a user's active plan a new proxy password (touching `updated_at`, which is how the gateway's
 * refresh notices within a second). Answers the plan, or null for another user's plan or none.
 */
export async function setPlanPassword(
  db: Executor,
  params: { userId: string; planId: string; password: string },
): Promise<PlanRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(params.planId)) {
    return null;
  }
  const [row] = await db
    .update(plans)
    .set({ password: params.password, updatedAt: new Date() })
    .where(and(eq(plans.id, params.planId), eq(plans.userId, params.userId), eq(plans.isActive, true)))
    .returning();
  return row ?? null;
}
