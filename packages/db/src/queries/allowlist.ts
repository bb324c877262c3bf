import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { planAllowlist } from '../schema/inventory.ts';
import { plans } from '../schema/plans.ts';
import { proxyUsers } from '../schema/proxy-users.ts';

/** One plan's allowlisted client addresses, oldest first. */
export async function listPlanAllowlist(db: Executor, params: { planId: string }) {
  return db
    .select({
      address: planAllowlist.address,
      createdAt: planAllowlist.createdAt,
      isVerified: planAllowlist.isVerified,
    })
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
): Promise<{
  planId: string;
  poolType: 'datacenter' | 'residential' | 'mobile';
  isVerified: boolean;
} | null> {
  const [row] = await db
    .select({ planId: plans.id, poolType: plans.poolType, isVerified: planAllowlist.isVerified })
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
  const [row] = await db.insert(planAllowlist).values(params).onConflictDoNothing().returning({
    address: planAllowlist.address,
    createdAt: planAllowlist.createdAt,
    isVerified: planAllowlist.isVerified,
  });
  return row ?? null;
}

/** Marks a plan's entry proved (added again from that very address); answers the entry. */
export async function verifyPlanAllowlistAddress(db: Executor, params: { planId: string; address: string }) {
  const [row] = await db
    .update(planAllowlist)
    .set({ isVerified: true })
    .where(and(eq(planAllowlist.planId, params.planId), eq(planAllowlist.address, params.address)))
    .returning({
      address: planAllowlist.address,
      createdAt: planAllowlist.createdAt,
      isVerified: planAllowlist.isVerified,
    });
  return row ?? null;
}

/**
 * Serialises every write that may give `address` a holder, across plans' and proxy users' allowlists
 * (which no one index spans), until the transaction ends.
 */
export async function lockAllowlistAddress(db: Executor, params: { address: string }): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`allowlist:${params.address}`}, 0))`);
}

/**
 * The accounts that proved `address` theirs on an active plan: a verified entry on a plan's allowlist or
 * on one of its proxy users'. Whoever they are is for the API to check, never to show.
 */
export async function listAddressHolderAccounts(
  db: Executor,
  params: { address: string },
): Promise<string[]> {
  const onPlans = await db
    .selectDistinct({ userId: plans.userId })
    .from(planAllowlist)
    .innerJoin(plans, eq(plans.id, planAllowlist.planId))
    .where(
      and(
        eq(planAllowlist.address, params.address),
        eq(planAllowlist.isVerified, true),
        eq(plans.isActive, true),
      ),
    );
  const onProxyUsers = await db
    .selectDistinct({ userId: plans.userId })
    .from(proxyUsers)
    .innerJoin(plans, eq(plans.id, proxyUsers.planId))
    .where(and(sql`${params.address} = any(${proxyUsers.allowlistVerified})`, eq(plans.isActive, true)));
  return [...new Set([...onPlans, ...onProxyUsers].map((row) => row.userId))];
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
