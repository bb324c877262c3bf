import { and, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { usageBuckets, usageErrors, usageHosts } from '../schema/traffic.ts';

// The public API's usage reads: a period of one or more plans, as a series (hour or day, UTC), by target
// host (keyset-paged by bytes, then host) or by error code.

export interface UsagePeriod {
  planIds: string[];
  from: Date;
  to: Date;
}

export async function usageSeries(db: Executor, params: UsagePeriod & { unit: 'hour' | 'day' }) {
  const start = sql<Date>`date_trunc(${sql.raw(`'${params.unit}'`)}, ${usageBuckets.bucketStart} at time zone 'UTC') at time zone 'UTC'`;
  return db
    .select({
      start,
      bytes: sql<number>`sum(${usageBuckets.bytes})::bigint`.mapWith(Number),
      extraBytes: sql<number>`sum(${usageBuckets.extraBytes})::bigint`.mapWith(Number),
      requests: sql<number>`sum(${usageBuckets.requests})::bigint`.mapWith(Number),
      errors: sql<number>`sum(${usageBuckets.errors})::bigint`.mapWith(Number),
    })
    .from(usageBuckets)
    .where(
      and(
        inArray(usageBuckets.planId, params.planIds),
        gte(usageBuckets.bucketStart, params.from),
        lt(usageBuckets.bucketStart, params.to),
      ),
    )
    .groupBy(start)
    .orderBy(start);
}

export async function usageByErrorCode(db: Executor, params: UsagePeriod) {
  return db
    .select({
      code: usageErrors.code,
      count: sql<number>`sum(${usageErrors.count})::bigint`.mapWith(Number),
    })
    .from(usageErrors)
    .where(
      and(
        inArray(usageErrors.planId, params.planIds),
        gte(usageErrors.bucketStart, params.from),
        lt(usageErrors.bucketStart, params.to),
      ),
    )
    .groupBy(usageErrors.code)
    .orderBy(sql`2 desc`, usageErrors.code);
}

/** Hosts by bytes, most first, then by name; `after` is the last row of the previous page. */
export async function usageByHost(
  db: Executor,
  params: UsagePeriod & { limit: number; after?: { bytes: number; host: string } | undefined },
) {
  const total = sql<number>`sum(${usageHosts.bytes})`;
  return db
    .select({ host: usageHosts.host, bytes: sql<number>`sum(${usageHosts.bytes})::bigint`.mapWith(Number) })
    .from(usageHosts)
    .where(
      and(
        inArray(usageHosts.planId, params.planIds),
        gte(usageHosts.dayStart, params.from),
        lt(usageHosts.dayStart, params.to),
      ),
    )
    .groupBy(usageHosts.host)
    .having(
      params.after
        ? sql`(${total} < ${params.after.bytes} or (${total} = ${params.after.bytes} and ${usageHosts.host} > ${params.after.host}))`
        : undefined,
    )
    .orderBy(sql`2 desc`, usageHosts.host)
    .limit(params.limit);
}
