import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { planAllowlist } from '../schema/inventory.ts';
import { plans } from '../schema/plans.ts';

/** One plan's allowlisted client addresses, oldest first. */
export async function listPlanAllowlist(db: Executor, params: { planId: string }) {
  return db
    .select({ address: planAllowlist.address, createdAt: planAllowlist.createdAt })
    .from(planAllowlist)
    .where(eq(planAllowlist.planId, params.planId))
    .orderBy(asc(planAllowlist.createdAt), asc(planAllowlist.address));
}

export async function countPlanAllowlist(db: Executor, params: { planId: string }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(planAllowlist)
    .where(eq(planAllowlist.planId, params.planId));
  return row?.n ?? 0;
}

/** The pool of the user's plan whose allowlist holds this address, if any (always scoped by owner). */
export async function findUserAllowlistEntry(
  db: Executor,
  params: { userId: string; address: string },
): Promise<{ planId: string; poolType: 'datacenter' | 'residential' | 'mobile' } | null> {
  const [row] = await db
    .select({ planId: plans.id, poolType: plans.poolType })
    .from(planAllowlist)
    .innerJoin(plans, eq(plans.id, planAllowlist.planId))
    .where(and(eq(plans.userId, params.userId), eq(planAllowlist.address, params.address)))
    .limit(1);
  return row ?? null;
}

/** Adds an address to a plan's allowlist; answers null when this plan already lists it. */
export async function addPlanAllowlistAddress(
  db: Executor,
  params: { planId: string; address: string; isVerified: boolean },
) {
  const [row] = await db
    .insert(planAllowlist)
    .values(params)
    .onConflictDoNothing()
    .returning({ address: planAllowlist.address, createdAt: planAllowlist.createdAt });
  return row ?? null;
}

/** Removes an address from a plan's allowlist; answers whether it was there. */
export async function removePlanAllowlistAddress(
  db: Executor,
  params: { planId: string; address: string },
): Promise<boolean> {
  const rows = await db
    .delete(planAllowlist)
    .where(and(eq(planAllowlist.planId, params.planId), eq(planAllowlist.address, params.address)))
    .returning({ address: planAllowlist.address });
  return rows.length > 0;
}
