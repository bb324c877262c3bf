import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { planAllowlist } from '../schema/inventory.ts';

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

/**
 * Adds an address to a plan's allowlist. An address belongs to one plan only: answers null when
 * it is taken (by this plan or any other), so the caller can say so without learning whose it is.
 */
export async function addPlanAllowlistAddress(db: Executor, params: { planId: string; address: string }) {
  const [row] = await db
    .insert(planAllowlist)
    .values(params)
    .onConflictDoNothing({ target: planAllowlist.address })
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
