import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { exitRemovals, exits, inventoryVersion, planAllowlist, proxySettings } from '../schema/inventory.ts';
import { plans } from '../schema/plans.ts';
import { usageErrors, usageFlushes, usageHosts } from '../schema/traffic.ts';
import { applyProxyUserUsage, type ProxyUserMeteredUsage } from './proxy-users.ts';
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
      /** Set while staff have disabled the owner: the gateway treats the plan as inactive. */
      ownerDisabledAt: users.disabledAt,
      unblockedPorts: users.unblockedPorts,
      unblockedHosts: users.unblockedHosts,
      settings: proxySettings,
    })
    .from(plans)
    .innerJoin(users, eq(users.id, plans.userId))
    .leftJoin(proxySettings, eq(proxySettings.planId, plans.id))
    .where(params.since ? gt(plans.updatedAt, params.since) : undefined);
}

export async function listAllowlist(db: Executor) {
  return db
    .select({
      address: planAllowlist.address,
      planId: planAllowlist.planId,
      isVerified: planAllowlist.isVerified,
    })
    .from(planAllowlist);
}

/**
 * The inventory's change counter (bumped by a trigger on every statement that writes `exits`), and the
 * version up to which removals may have been pruned (a reader behind it reads the whole inventory).
 */
export async function getInventoryVersion(
  db: Executor,
): Promise<{ version: number; removalsPrunedThrough: number }> {
  const [row] = await db
    .select({
      version: inventoryVersion.version,
      removalsPrunedThrough: inventoryVersion.removalsPrunedThrough,
    })
    .from(inventoryVersion);
  return row ?? { version: 0, removalsPrunedThrough: 0 };
}

/** Every exit a statement wrote after inventory version `since`, in rotation or not. */
export async function listExitsChangedSince(db: Executor, params: { since: number }): Promise<ExitRow[]> {
  return db.select().from(exits).where(gt(exits.changedVersion, params.since));
}

/** The ids of exits deleted after inventory version `since`. */
export async function listExitRemovalsSince(db: Executor, params: { since: number }): Promise<string[]> {
  const rows = await db
    .select({ exitId: exitRemovals.exitId })
    .from(exitRemovals)
    .where(gt(exitRemovals.version, params.since));
  return rows.map((row) => row.exitId);
}

/**
 * Forgets removals recorded before `before`, and raises the version a reader must have seen to read
 * only what changed since (one that has seen less reads the whole inventory again).
 */
export async function deleteExitRemovalsBefore(db: Executor, params: { before: Date }): Promise<void> {
  await db.execute(sql`
    with pruned as (
      delete from ${exitRemovals} where ${exitRemovals.removedAt} < ${params.before.toISOString()}
      returning ${exitRemovals.version}
    )
    update ${inventoryVersion}
    set removals_pruned_through = greatest(removals_pruned_through, (select max(version) from pruned))
    where exists (select 1 from pruned)`);
}

/** The exits in rotation: switched on, and not taken out by the health rules. */
export async function listActiveExits(db: Executor): Promise<ExitRow[]> {
  return db
    .select()
    .from(exits)
    .where(and(eq(exits.isActive, true), isNull(exits.outOfRotationAt)));
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

export interface MeteredPlanUsage extends UsageTotals {
  planId: string;
  billedBytes: number;
  errorsByCode: Record<string, number>;
  hostBytes: Record<string, number>;
}

/**
 * One metering flush: every plan's billed bytes onto its traffic used, its hourly usage bucket, its
 * errors by code and its bytes per target host. Run inside one transaction so a flush counts entirely
 * or not at all.
 */
/**
 * Applies one flush of the gateway's metering, recorded under its id in the same transaction (see
 * `usageFlushes`): the caller runs this inside a transaction.
 */
export async function applyMeteredUsage(
  tx: Executor,
  params: {
    flushId: string;
    bucketStart: Date;
    dayStart: Date;
    usage: MeteredPlanUsage[];
    /** The proxy users' shares of the same bytes (their plans' entries carry them too). */
    proxyUsers?: ProxyUserMeteredUsage[];
  },
): Promise<Map<string, number>> {
  await tx.insert(usageFlushes).values({ id: params.flushId });
  /** Each plan's traffic used once this flush is in (the fleet's Redis figures take it from here). */
  const usedAfter = new Map<string, number>();
  const errorRows: Array<typeof usageErrors.$inferInsert> = [];
  const hostRows: Array<typeof usageHosts.$inferInsert> = [];
  for (const entry of params.usage) {
    if (entry.billedBytes > 0) {
      const [row] = await tx
        .update(plans)
        .set({ trafficUsedBytes: sql`${plans.trafficUsedBytes} + ${entry.billedBytes}` })
        .where(and(eq(plans.id, entry.planId)))
        .returning({ used: plans.trafficUsedBytes });
      if (row) {
        usedAfter.set(entry.planId, row.used);
      }
    }
    await addUsage(tx, {
      planId: entry.planId,
      bucketStart: params.bucketStart,
      bytes: entry.bytes,
      extraBytes: entry.extraBytes,
      requests: entry.requests,
      errors: entry.errors,
    });
    for (const [code, count] of Object.entries(entry.errorsByCode)) {
      errorRows.push({ planId: entry.planId, bucketStart: params.bucketStart, code, count });
    }
    for (const [host, bytes] of Object.entries(entry.hostBytes)) {
      hostRows.push({ planId: entry.planId, dayStart: params.dayStart, host: host.slice(0, 253), bytes });
    }
  }
  if (errorRows.length > 0) {
    await tx
      .insert(usageErrors)
      .values(errorRows)
      .onConflictDoUpdate({
        target: [usageErrors.planId, usageErrors.bucketStart, usageErrors.code],
        set: { count: sql`${usageErrors.count} + excluded.count` },
      });
  }
  if (hostRows.length > 0) {
    await tx
      .insert(usageHosts)
      .values(hostRows)
      .onConflictDoUpdate({
        target: [usageHosts.planId, usageHosts.dayStart, usageHosts.host],
        set: { bytes: sql`${usageHosts.bytes} + excluded.bytes` },
      });
  }
  if (params.proxyUsers && params.proxyUsers.length > 0) {
    const capsUsed = await applyProxyUserUsage(tx, {
      bucketStart: params.bucketStart,
      usage: params.proxyUsers,
    });
    for (const [key, used] of capsUsed) {
      usedAfter.set(key, used);
    }
  }
  return usedAfter;
}

/** Whether the flush with this id was committed (its answer may have been lost on the way back). */
export async function isUsageFlushApplied(db: Executor, params: { flushId: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: usageFlushes.id })
    .from(usageFlushes)
    .where(eq(usageFlushes.id, params.flushId))
    .limit(1);
  return row !== undefined;
}

export async function deleteUsageFlushesBefore(db: Executor, params: { before: Date }): Promise<void> {
  await db.delete(usageFlushes).where(lt(usageFlushes.createdAt, params.before));
}
