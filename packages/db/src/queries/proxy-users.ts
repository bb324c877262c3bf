import { and, asc, eq, gt, gte, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { plans } from '../schema/plans.ts';
import { proxyUsers, proxyUserUsage } from '../schema/proxy-users.ts';

export type ProxyUserRow = typeof proxyUsers.$inferSelect;
export type NewProxyUser = typeof proxyUsers.$inferInsert;
export type TrafficCapPeriod = NonNullable<ProxyUserRow['capPeriod']>;

/** How many proxy users one plan may hold (a bounded gateway cache and a bounded list). */
export const MAX_PROXY_USERS_PER_PLAN = 1000;

/**
 * Marks the plan changed: the gateway reloads a plan's proxy users whenever it sees the plan's row
 * move, so every write to a proxy user (a delete included) touches its plan in the same transaction.
 */
export async function touchPlan(db: Executor, params: { planId: string }): Promise<void> {
  await db.update(plans).set({ updatedAt: new Date() }).where(eq(plans.id, params.planId));
}

export async function createProxyUser(db: Executor, values: NewProxyUser): Promise<ProxyUserRow> {
  const [row] = await db.insert(proxyUsers).values(values).returning();
  if (!row) {
    throw new Error('proxy user insert returned no row');
  }
  await touchPlan(db, { planId: values.planId });
  return row;
}

/** Whether a login is in use by any plan or proxy user (logins are one namespace at the gateway). */
export async function isProxyLoginTaken(db: Executor, params: { login: string }): Promise<boolean> {
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.login, params.login)).limit(1);
  if (plan) {
    return true;
  }
  const [user] = await db
    .select({ id: proxyUsers.id })
    .from(proxyUsers)
    .where(eq(proxyUsers.login, params.login))
    .limit(1);
  return user !== undefined;
}

export async function countProxyUsers(db: Executor, params: { planId: string }): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(proxyUsers)
    .where(eq(proxyUsers.planId, params.planId));
  return row?.count ?? 0;
}

/**
 * `created_at` to the microsecond, as UTC ISO text: a page's cursor must name its last row exactly (a
 * JavaScript Date keeps milliseconds only, and a cursor cut to them would show that row again).
 */
const createdAtExact = sql<string>`to_char(${proxyUsers.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * A page of a plan's proxy users, oldest first, after a (created_at, id) cursor; `createdAt` is the
 * exact text a previous page's `createdAtExact` gave.
 */
export async function listProxyUsers(
  db: Executor,
  params: { planId: string; after?: { createdAt: string; id: string } | undefined; limit: number },
): Promise<Array<{ proxyUser: ProxyUserRow; createdAtExact: string }>> {
  const after = params.after;
  return db
    .select({ proxyUser: proxyUsers, createdAtExact })
    .from(proxyUsers)
    .where(
      and(
        eq(proxyUsers.planId, params.planId),
        after
          ? or(
              sql`${proxyUsers.createdAt} > ${after.createdAt}::timestamptz`,
              and(
                sql`${proxyUsers.createdAt} = ${after.createdAt}::timestamptz`,
                gt(proxyUsers.id, after.id),
              ),
            )
          : undefined,
      ),
    )
    .orderBy(asc(proxyUsers.createdAt), asc(proxyUsers.id))
    .limit(params.limit);
}

/** One of the account's proxy users (through its plan), locked for an update when `forUpdate`. */
export async function getOwnProxyUser(
  db: Executor,
  params: { userId: string; proxyUserId: string; forUpdate?: boolean },
): Promise<{ proxyUser: ProxyUserRow; plan: typeof plans.$inferSelect } | null> {
  const query = db
    .select({ proxyUser: proxyUsers, plan: plans })
    .from(proxyUsers)
    .innerJoin(plans, eq(plans.id, proxyUsers.planId))
    .where(and(eq(proxyUsers.id, params.proxyUserId), eq(plans.userId, params.userId)))
    .limit(1);
  const [row] = params.forUpdate ? await query.for('update', { of: proxyUsers }) : await query;
  return row ?? null;
}

export async function updateProxyUser(
  db: Executor,
  params: { proxyUserId: string; planId: string; set: Partial<NewProxyUser> },
): Promise<ProxyUserRow> {
  const [row] = await db
    .update(proxyUsers)
    .set(params.set)
    .where(eq(proxyUsers.id, params.proxyUserId))
    .returning();
  if (!row) {
    throw new Error('proxy user update found no row');
  }
  await touchPlan(db, { planId: params.planId });
  return row;
}

export async function deleteProxyUser(
  db: Executor,
  params: { proxyUserId: string; planId: string },
): Promise<void> {
  await db.delete(proxyUsers).where(eq(proxyUsers.id, params.proxyUserId));
  await touchPlan(db, { planId: params.planId });
}

/**
 * Traffic set aside for a plan's proxy users with lifetime caps: what each may still use. Moving traffic
 * to a proxy user is bounded by what the plan has left beyond this.
 */
export async function sumLifetimeReservedBytes(
  db: Executor,
  params: { planId: string; exceptProxyUserId?: string },
): Promise<number> {
  const [row] = await db
    .select({
      reserved: sql<string>`coalesce(sum(greatest(${proxyUsers.trafficCapBytes} - ${proxyUsers.trafficUsedBytes}, 0)), 0)`,
    })
    .from(proxyUsers)
    .where(
      and(
        eq(proxyUsers.planId, params.planId),
        eq(proxyUsers.capPeriod, 'lifetime'),
        params.exceptProxyUserId ? sql`${proxyUsers.id} <> ${params.exceptProxyUserId}` : undefined,
      ),
    );
  return Number(row?.reserved ?? 0);
}

/** Proxy users of these plans (of every plan when null), for the gateway's credentials. */
export async function listProxyUsersForGateway(
  db: Executor,
  params: { planIds: string[] | null },
): Promise<ProxyUserRow[]> {
  if (params.planIds !== null && params.planIds.length === 0) {
    return [];
  }
  return db
    .select()
    .from(proxyUsers)
    .where(params.planIds === null ? undefined : inArray(proxyUsers.planId, params.planIds));
}

/** Where a period that contains `now` starts (UTC): the day, the month, or nothing for lifetime. */
export function capPeriodStart(period: TrafficCapPeriod, now: Date): Date | null {
  if (period === 'day') {
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  }
  if (period === 'month') {
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  }
  return null;
}

/** What a proxy user used in the period containing `now` (its counter, unless the period moved on). */
export function usedInPeriod(row: ProxyUserRow, now: Date): number {
  if (row.capPeriod === null) {
    return row.trafficUsedBytes;
  }
  const start = capPeriodStart(row.capPeriod, now);
  if (start === null) {
    return row.trafficUsedBytes;
  }
  return row.periodStart !== null && row.periodStart.getTime() === start.getTime() ? row.periodUsedBytes : 0;
}

export interface ProxyUserMeteredUsage {
  proxyUserId: string;
  /** When the flush is written: its cap period (the UTC day or month) is the one the bytes count to. */
  now: Date;
  billedBytes: number;
  bytes: number;
  extraBytes: number;
  requests: number;
  errors: number;
}

/**
 * A flush's usage for proxy users (inside the flush's transaction): billed bytes onto each user's
 * lifetime counter and the counter of its cap's current period (a later period starts it again), and
 * its hourly bucket. A user deleted meanwhile is skipped (its plan carries the bytes). Returns what each
 * cap has used after it, under the meter's key (`pu:<id>`), for the fleet's shared figures.
 */
export async function applyProxyUserUsage(
  tx: Executor,
  params: { bucketStart: Date; usage: ProxyUserMeteredUsage[] },
): Promise<Map<string, number>> {
  const usedAfter = new Map<string, number>();
  for (const entry of params.usage) {
    const day = capPeriodStart('day', entry.now);
    const month = capPeriodStart('month', entry.now);
    const period = sql`(case ${proxyUsers.capPeriod} when 'day' then ${day}::timestamptz when 'month' then ${month}::timestamptz else null end)`;
    const [row] = await tx
      .update(proxyUsers)
      .set({
        trafficUsedBytes: sql`${proxyUsers.trafficUsedBytes} + ${entry.billedBytes}`,
        periodUsedBytes: sql`case
          when ${period} is null then ${proxyUsers.periodUsedBytes}
          when ${proxyUsers.periodStart} = ${period} then ${proxyUsers.periodUsedBytes} + ${entry.billedBytes}
          when ${proxyUsers.periodStart} is null or ${proxyUsers.periodStart} < ${period} then ${entry.billedBytes}
          else ${proxyUsers.periodUsedBytes} end`,
        periodStart: sql`greatest(${proxyUsers.periodStart}, ${period})`,
      })
      .where(eq(proxyUsers.id, entry.proxyUserId))
      .returning({
        capPeriod: proxyUsers.capPeriod,
        trafficUsedBytes: proxyUsers.trafficUsedBytes,
        periodUsedBytes: proxyUsers.periodUsedBytes,
      });
    if (!row) {
      continue;
    }
    usedAfter.set(
      `pu:${entry.proxyUserId}`,
      row.capPeriod === 'day' || row.capPeriod === 'month' ? row.periodUsedBytes : row.trafficUsedBytes,
    );
    await tx
      .insert(proxyUserUsage)
      .values({
        proxyUserId: entry.proxyUserId,
        bucketStart: params.bucketStart,
        bytes: entry.bytes,
        extraBytes: entry.extraBytes,
        requests: entry.requests,
        errors: entry.errors,
      })
      .onConflictDoUpdate({
        target: [proxyUserUsage.proxyUserId, proxyUserUsage.bucketStart],
        set: {
          bytes: sql`${proxyUserUsage.bytes} + excluded.bytes`,
          extraBytes: sql`${proxyUserUsage.extraBytes} + excluded.extra_bytes`,
          requests: sql`${proxyUserUsage.requests} + excluded.requests`,
          errors: sql`${proxyUserUsage.errors} + excluded.errors`,
        },
      });
  }
  return usedAfter;
}

/**
 * What a proxy user was billed (bytes and extra bytes) in its hourly buckets from `since` on: its usage
 * in a cap period that starts then (periods start on the hour).
 */
export async function sumProxyUserUsageSince(
  db: Executor,
  params: { proxyUserId: string; since: Date },
): Promise<number> {
  const [row] = await db
    .select({
      used: sql<string>`coalesce(sum(${proxyUserUsage.bytes} + ${proxyUserUsage.extraBytes}), 0)`,
    })
    .from(proxyUserUsage)
    .where(
      and(eq(proxyUserUsage.proxyUserId, params.proxyUserId), gte(proxyUserUsage.bucketStart, params.since)),
    );
  return Number(row?.used ?? 0);
}

/** Hourly usage of one proxy user since a moment, oldest first. */
export async function listProxyUserUsage(
  db: Executor,
  params: { proxyUserId: string; since: Date },
): Promise<Array<typeof proxyUserUsage.$inferSelect>> {
  return db
    .select()
    .from(proxyUserUsage)
    .where(
      and(eq(proxyUserUsage.proxyUserId, params.proxyUserId), gt(proxyUserUsage.bucketStart, params.since)),
    )
    .orderBy(asc(proxyUserUsage.bucketStart));
}
