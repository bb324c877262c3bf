import { and, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { exits, planAllowlist } from '../schema/inventory.ts';
import { plans } from '../schema/plans.ts';
import { addUsage, type UsageTotals } from './usage.ts';

export type ExitRow = typeof exits.$inferSelect;
export type NewExit = typeof exits.$inferInsert;

/** Plans changed since a moment (all of them when `since` is null), with what the gateway needs. */
export async function listPlansForGateway(db: Executor, params: { since: Date | null }) {
  return db
    .select({
      planId: plans.id,
      login: plans.login,
      password: plans.password,
      poolType: plans.poolType,
      threadLimit: plans.threadLimit,
      trafficTotalBytes: plans.trafficTotalBytes,
      trafficUsedBytes: plans.trafficUsedBytes,
      isActive: plans.isActive,
      updatedAt: plans.updatedAt,
      unblockedPorts: users.unblockedPorts,
      unblockedHosts: users.unblockedHosts,
    })
    .from(plans)
    .innerJoin(users, eq(users.id, plans.userId))
    .where(params.since ? gt(plans.updatedAt, params.since) : undefined);
}

export async function listAllowlist(db: Executor) {
  return db.select({ address: planAllowlist.address, planId: planAllowlist.planId }).from(planAllowlist);
}

export async function listActiveExits(db: Executor): Promise<ExitRow[]> {
  return db.select().from(exits).where(eq(exits.isActive, true));
}

export async function listExitsForAdmin(db: Executor): Promise<ExitRow[]> {
  return db.select().from(exits).orderBy(exits.poolType, exits.country, exits.name);
}

export async function createExits(db: Executor, params: { exits: NewExit[] }): Promise<ExitRow[]> {
  return params.exits.length === 0 ? [] : db.insert(exits).values(params.exits).returning();
}

export async function deleteExit(db: Executor, params: { exitId: string }): Promise<boolean> {
  const deleted = await db.delete(exits).where(eq(exits.id, params.exitId)).returning({ id: exits.id });
  return deleted.length > 0;
}

export async function countExits(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(exits);
  return row?.n ?? 0;
}

/**
 * One metering flush: every plan's billed bytes onto its traffic used, and its hourly usage bucket.
 * Run inside one transaction so a flush counts entirely or not at all.
 */
export async function applyMeteredUsage(
  tx: Executor,
  params: { bucketStart: Date; usage: Array<{ planId: string; billedBytes: number } & UsageTotals> },
): Promise<void> {
  for (const entry of params.usage) {
    if (entry.billedBytes > 0) {
      await tx
        .update(plans)
        .set({ trafficUsedBytes: sql`${plans.trafficUsedBytes} + ${entry.billedBytes}` })
        .where(and(eq(plans.id, entry.planId)));
    }
    await addUsage(tx, {
      planId: entry.planId,
      bucketStart: params.bucketStart,
      bytes: entry.bytes,
      extraBytes: entry.extraBytes,
      requests: entry.requests,
      errors: entry.errors,
    });
  }
}
