import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { plans } from '../schema/plans.ts';
import { proxyUsers } from '../schema/proxy-users.ts';
import {
  usageStatsDaily,
  usageStatsErrorsDaily,
  usageStatsErrorsHourly,
  usageStatsHostsDaily,
  usageStatsHourly,
} from '../schema/usage-stats.ts';
import type { PlanRow } from './plans.ts';

/** All of a plan's credentials together, and the plan's own login (see schema/usage-stats.ts). */
export const ALL_CREDENTIALS = '*';
export const PLAN_LOGIN = '';

export interface HostCounts {
  bytes: number;
  requests: number;
  errors: number;
}

/** One credential's (or a plan's, under `*`) share of a metering flush. */
export interface CredentialUsage {
  planId: string;
  credentialKey: string;
  bytes: number;
  extraBytes: number;
  requests: number;
  errors: number;
  refusals: number;
  errorsByCode: Record<string, number>;
  hosts: Record<string, HostCounts>;
}

/** Host names are stored up to 253 characters (the DNS maximum); longer ones meet at their cut. */
const HOST_MAX_LENGTH = 253;

/**
 * Adds one flush's usage to the Statistics tables: hourly and daily counts, errors by code (hourly and
 * daily) and target hosts (daily), five statements however many plans and credentials. Each
 * (plan, credential) must appear once in `rows`. Runs in the flush's transaction.
 */
export async function addUsageStats(
  tx: Executor,
  params: { hour: Date; day: Date; rows: CredentialUsage[] },
): Promise<void> {
  const rows = params.rows.filter((row) => row.requests > 0 || row.bytes > 0 || row.extraBytes > 0);
  if (rows.length === 0) {
    return;
  }
  const counts = (row: CredentialUsage) => ({
    planId: row.planId,
    credentialKey: row.credentialKey,
    bytes: row.bytes,
    extraBytes: row.extraBytes,
    requests: row.requests,
    errors: row.errors,
    refusals: row.refusals,
  });
  const addCounts = (table: typeof usageStatsHourly | typeof usageStatsDaily) => ({
    bytes: sql`${table.bytes} + excluded.bytes`,
    extraBytes: sql`${table.extraBytes} + excluded.extra_bytes`,
    requests: sql`${table.requests} + excluded.requests`,
    errors: sql`${table.errors} + excluded.errors`,
    refusals: sql`${table.refusals} + excluded.refusals`,
  });
  await tx
    .insert(usageStatsHourly)
    .values(rows.map((row) => ({ ...counts(row), hour: params.hour })))
    .onConflictDoUpdate({
      target: [usageStatsHourly.planId, usageStatsHourly.credentialKey, usageStatsHourly.hour],
      set: addCounts(usageStatsHourly),
    });
  await tx
    .insert(usageStatsDaily)
    .values(rows.map((row) => ({ ...counts(row), day: params.day })))
    .onConflictDoUpdate({
      target: [usageStatsDaily.planId, usageStatsDaily.credentialKey, usageStatsDaily.day],
      set: addCounts(usageStatsDaily),
    });
  const errorRows = rows.flatMap((row) =>
    Object.entries(row.errorsByCode)
      .filter(([, count]) => count > 0)
      .map(([code, count]) => ({ planId: row.planId, credentialKey: row.credentialKey, code, count })),
  );
  if (errorRows.length > 0) {
    await tx
      .insert(usageStatsErrorsHourly)
      .values(errorRows.map((row) => ({ ...row, hour: params.hour })))
      .onConflictDoUpdate({
        target: [
          usageStatsErrorsHourly.planId,
          usageStatsErrorsHourly.credentialKey,
          usageStatsErrorsHourly.hour,
          usageStatsErrorsHourly.code,
        ],
        set: { count: sql`${usageStatsErrorsHourly.count} + excluded.count` },
      });
    await tx
      .insert(usageStatsErrorsDaily)
      .values(errorRows.map((row) => ({ ...row, day: params.day })))
      .onConflictDoUpdate({
        target: [
          usageStatsErrorsDaily.planId,
          usageStatsErrorsDaily.credentialKey,
          usageStatsErrorsDaily.day,
          usageStatsErrorsDaily.code,
        ],
        set: { count: sql`${usageStatsErrorsDaily.count} + excluded.count` },
      });
  }
  const hostRows = rows.flatMap((row) => {
    const merged = new Map<string, HostCounts>();
    for (const [name, host] of Object.entries(row.hosts)) {
      const cut = name.slice(0, HOST_MAX_LENGTH);
      const known = merged.get(cut);
      merged.set(
        cut,
        known
          ? {
              bytes: known.bytes + host.bytes,
              requests: known.requests + host.requests,
              errors: known.errors + host.errors,
            }
          : { ...host },
      );
    }
    return [...merged].map(([host, counts]) => ({
      planId: row.planId,
      credentialKey: row.credentialKey,
      day: params.day,
      host,
      ...counts,
    }));
  });
  if (hostRows.length > 0) {
    await tx
      .insert(usageStatsHostsDaily)
      .values(hostRows)
      .onConflictDoUpdate({
        target: [
          usageStatsHostsDaily.planId,
          usageStatsHostsDaily.credentialKey,
          usageStatsHostsDaily.day,
          usageStatsHostsDaily.host,
        ],
        set: {
          bytes: sql`${usageStatsHostsDaily.bytes} + excluded.bytes`,
          requests: sql`${usageStatsHostsDaily.requests} + excluded.requests`,
          errors: sql`${usageStatsHostsDaily.errors} + excluded.errors`,
        },
      });
  }
}

/** Which rows a Statistics view reads: some plans of one customer, one credential key, a range. */
export interface StatsScope {
  planIds: string[];
  credentialKey: string;
  from: Date;
  to: Date;
}

export interface StatsCountsRow {
  at: Date;
  bytes: number;
  extraBytes: number;
  requests: number;
  errors: number;
  refusals: number;
}

const num = (column: unknown) => sql<number>`coalesce(sum(${column}), 0)::float8`;

/**
 * The scope's plans as a table to join on: with `plan_id in (...)` the planner takes every plan's rows
 * to be as common as the all-credentials key is across the table (half of it), where a plan with
 * hundreds of proxy users has one `*` row in hundreds; past a few million rows it then scans the whole
 * table (bench:stats: 450 ms for a customer's 90 days of hosts). Joined one plan at a time, each plan's
 * estimate is its own and the primary key is used (20 ms).
 */
const scopePlans = (planIds: string[]) =>
  sql`unnest(array[${sql.join(
    planIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]) as scope_plan(id)`;
const inScope = (column: unknown) => sql`${column} = scope_plan.id`;

/** The counts of each hour (or UTC day) of the range that has any, oldest first. */
export async function getStatsCounts(
  db: Executor,
  params: StatsScope & { resolution: 'hour' | 'day' },
): Promise<StatsCountsRow[]> {
  if (params.planIds.length === 0) {
    return [];
  }
  const table = params.resolution === 'hour' ? usageStatsHourly : usageStatsDaily;
  const at = params.resolution === 'hour' ? usageStatsHourly.hour : usageStatsDaily.day;
  return db
    .select({
      at,
      bytes: num(table.bytes),
      extraBytes: num(table.extraBytes),
      requests: num(table.requests),
      errors: num(table.errors),
      refusals: num(table.refusals),
    })
    .from(table)
    .innerJoin(scopePlans(params.planIds), inScope(table.planId))
    .where(and(eq(table.credentialKey, params.credentialKey), gte(at, params.from), lt(at, params.to)))
    .groupBy(at)
    .orderBy(at);
}

/** Refused and failed requests of the range by code, per hour (or UTC day). */
export async function getStatsErrorCounts(
  db: Executor,
  params: StatsScope & { resolution: 'hour' | 'day' },
): Promise<Array<{ at: Date; code: string; count: number }>> {
  if (params.planIds.length === 0) {
    return [];
  }
  const table = params.resolution === 'hour' ? usageStatsErrorsHourly : usageStatsErrorsDaily;
  const at = params.resolution === 'hour' ? usageStatsErrorsHourly.hour : usageStatsErrorsDaily.day;
  return db
    .select({ at, code: table.code, count: num(table.count) })
    .from(table)
    .innerJoin(scopePlans(params.planIds), inScope(table.planId))
    .where(and(eq(table.credentialKey, params.credentialKey), gte(at, params.from), lt(at, params.to)))
    .groupBy(at, table.code)
    .orderBy(at, table.code);
}

/**
 * The range's target hosts (UTC days), most bytes first, host name next: a page of `limit` after the
 * cursor's host (its bytes and name), optionally those whose name holds `search`.
 */
export async function getStatsHosts(
  db: Executor,
  params: StatsScope & {
    search?: string | undefined;
    limit: number;
    after?: { bytes: number; host: string } | undefined;
  },
): Promise<Array<HostCounts & { host: string }>> {
  if (params.planIds.length === 0) {
    return [];
  }
  const table = usageStatsHostsDaily;
  const bytes = sql<number>`sum(${table.bytes})::float8`;
  const { after } = params;
  return db
    .select({
      host: table.host,
      bytes,
      requests: num(table.requests),
      errors: num(table.errors),
    })
    .from(table)
    .innerJoin(scopePlans(params.planIds), inScope(table.planId))
    .where(
      and(
        eq(table.credentialKey, params.credentialKey),
        gte(table.day, params.from),
        lt(table.day, params.to),
        params.search ? sql`strpos(${table.host}, ${params.search.toLowerCase()}) > 0` : undefined,
      ),
    )
    .groupBy(table.host)
    .having(
      after
        ? sql`(sum(${table.bytes}) < ${after.bytes} or (sum(${table.bytes}) = ${after.bytes} and ${table.host} > ${after.host}))`
        : undefined,
    )
    .orderBy(sql`sum(${table.bytes}) desc`, table.host)
    .limit(params.limit);
}

/** Drops Statistics rows past their retention: hourly ones before `hourlyBefore`, daily ones before `dailyBefore`. */
export async function pruneUsageStats(
  db: Executor,
  params: { hourlyBefore: Date; dailyBefore: Date },
): Promise<void> {
  await db.delete(usageStatsHourly).where(lt(usageStatsHourly.hour, params.hourlyBefore));
  await db.delete(usageStatsErrorsHourly).where(lt(usageStatsErrorsHourly.hour, params.hourlyBefore));
  await db.delete(usageStatsDaily).where(lt(usageStatsDaily.day, params.dailyBefore));
  await db.delete(usageStatsErrorsDaily).where(lt(usageStatsErrorsDaily.day, params.dailyBefore));
  await db.delete(usageStatsHostsDaily).where(lt(usageStatsHostsDaily.day, params.dailyBefore));
}

/** A customer's plans (past ones too: their usage is kept) for Statistics, oldest first. */
export async function listStatsPlans(
  db: Executor,
  params: { userId: string },
): Promise<Array<{ planId: string; poolType: PlanRow['poolType']; login: string; label: string }>> {
  return db
    .select({ planId: plans.id, poolType: plans.poolType, login: plans.login, label: plans.label })
    .from(plans)
    .where(eq(plans.userId, params.userId))
    .orderBy(plans.createdAt);
}

/** The proxy users of some plans, oldest first: the credentials a Statistics view can narrow to. */
export async function listStatsProxyUsers(
  db: Executor,
  params: { planIds: string[] },
): Promise<Array<{ proxyUserId: string; planId: string; login: string; label: string }>> {
  if (params.planIds.length === 0) {
    return [];
  }
  return db
    .select({
      proxyUserId: proxyUsers.id,
      planId: proxyUsers.planId,
      login: proxyUsers.login,
      label: proxyUsers.label,
    })
    .from(proxyUsers)
    .where(inArray(proxyUsers.planId, params.planIds))
    .orderBy(proxyUsers.createdAt, proxyUsers.id);
}
