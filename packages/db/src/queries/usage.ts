import { and, desc, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { proxyUserUsage } from '../schema/proxy-users.ts';
import { usageBuckets, usageErrors, usageHosts } from '../schema/traffic.ts';

export interface UsageTotals {
  bytes: number;
  extraBytes: number;
  requests: number;
  errors: number;
}

/** Totals of some plans' usage since a moment (the caller has already scoped the plans to their owner). */
export async function sumUsage(
  db: Executor,
  params: { planIds: string[]; since: Date },
): Promise<UsageTotals> {
  if (params.planIds.length === 0) {
    return { bytes: 0, extraBytes: 0, requests: 0, errors: 0 };
  }
  const [row] = await db
    .select({
      bytes: sql<string>`coalesce(sum(${usageBuckets.bytes}), 0)`,
      extraBytes: sql<string>`coalesce(sum(${usageBuckets.extraBytes}), 0)`,
      requests: sql<string>`coalesce(sum(${usageBuckets.requests}), 0)`,
      errors: sql<string>`coalesce(sum(${usageBuckets.errors}), 0)`,
    })
    .from(usageBuckets)
    .where(and(inArray(usageBuckets.planId, params.planIds), gte(usageBuckets.bucketStart, params.since)));
  return {
    bytes: Number(row?.bytes ?? 0),
    extraBytes: Number(row?.extraBytes ?? 0),
    requests: Number(row?.requests ?? 0),
    errors: Number(row?.errors ?? 0),
  };
}

/** Adds to a plan's hourly bucket (the gateway's metering flush; tests use it to seed usage). */
export async function addUsage(
  db: Executor,
  params: { planId: string; bucketStart: Date } & UsageTotals,
): Promise<void> {
  await db
    .insert(usageBuckets)
    .values(params)
    .onConflictDoUpdate({
      target: [usageBuckets.planId, usageBuckets.bucketStart],
      set: {
        bytes: sql`${usageBuckets.bytes} + ${params.bytes}`,
        extraBytes: sql`${usageBuckets.extraBytes} + ${params.extraBytes}`,
        requests: sql`${usageBuckets.requests} + ${params.requests}`,
        errors: sql`${usageBuckets.errors} + ${params.errors}`,
      },
    });
}

/** Drops usage older than a moment: buckets, errors by code and bytes per host. */
export async function deleteUsageBefore(db: Executor, params: { before: Date }): Promise<void> {
  const before = params.before.toISOString();
  await db.delete(usageBuckets).where(sql`${usageBuckets.bucketStart} < ${before}`);
  await db.delete(usageErrors).where(sql`${usageErrors.bucketStart} < ${before}`);
  await db.delete(usageHosts).where(sql`${usageHosts.dayStart} < ${before}`);
  await db.delete(proxyUserUsage).where(sql`${proxyUserUsage.bucketStart} < ${before}`);
}

/** A plan's refusals by error code since a moment, most frequent first. */
export async function sumErrorsByCode(db: Executor, params: { planIds: string[]; since: Date }) {
  if (params.planIds.length === 0) {
    return [];
  }
  const total = sql<string>`sum(${usageErrors.count})`;
  const rows = await db
    .select({ code: usageErrors.code, count: total })
    .from(usageErrors)
    .where(and(inArray(usageErrors.planId, params.planIds), gte(usageErrors.bucketStart, params.since)))
    .groupBy(usageErrors.code)
    .orderBy(desc(total));
  return rows.map((row) => ({ code: row.code, count: Number(row.count) }));
}

/** The hosts that carried the most bytes since a moment (days that started after it). */
export async function topHostsByBytes(
  db: Executor,
  params: { planIds: string[]; since: Date; limit: number },
) {
  if (params.planIds.length === 0) {
    return [];
  }
  const total = sql<string>`sum(${usageHosts.bytes})`;
  const rows = await db
    .select({ host: usageHosts.host, bytes: total })
    .from(usageHosts)
    .where(and(inArray(usageHosts.planId, params.planIds), gte(usageHosts.dayStart, params.since)))
    .groupBy(usageHosts.host)
    .orderBy(desc(total), usageHosts.host)
    .limit(params.limit);
  return rows.map((row) => ({ host: row.host, bytes: Number(row.bytes) }));
}

export interface DailyUsage extends UsageTotals {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
}

/** Some plans' usage per UTC day since a moment; days without traffic are absent. */
export async function sumUsageByDay(
  db: Executor,
  params: { planIds: string[]; since: Date },
): Promise<DailyUsage[]> {
  if (params.planIds.length === 0) {
    return [];
  }
  const day = sql<string>`to_char(${usageBuckets.bucketStart} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      bytes: sql<string>`sum(${usageBuckets.bytes})`,
      extraBytes: sql<string>`sum(${usageBuckets.extraBytes})`,
      requests: sql<string>`sum(${usageBuckets.requests})`,
      errors: sql<string>`sum(${usageBuckets.errors})`,
    })
    .from(usageBuckets)
    .where(and(inArray(usageBuckets.planId, params.planIds), gte(usageBuckets.bucketStart, params.since)))
    .groupBy(day)
    .orderBy(day);
  return rows.map((row) => ({
    day: row.day,
    bytes: Number(row.bytes),
    extraBytes: Number(row.extraBytes),
    requests: Number(row.requests),
    errors: Number(row.errors),
  }));
}
