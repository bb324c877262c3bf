import { and, asc, desc, eq, gt, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { plans } from '../schema/plans.ts';
import { usageBuckets, usageErrors } from '../schema/traffic.ts';

// The console's abuse and health view: who sends the most, who fails the most, what the gateway refused,
// over all customers (the staff guard on /api/admin authorizes it). Everything reads the hourly usage
// aggregates the gateway's metering flush writes, through their bucket_start indexes.

/** A plan as the view names it: its login, pool and owner. */
export interface PlanOwner {
  planId: string;
  login: string;
  poolType: 'datacenter' | 'residential' | 'mobile';
  userId: string;
  email: string;
}

const ownerColumns = {
  planId: plans.id,
  login: plans.login,
  poolType: plans.poolType,
  userId: plans.userId,
  email: users.email,
};

const billed = sql<number>`sum(${usageBuckets.bytes} + ${usageBuckets.extraBytes})`.mapWith(Number);
const requests = sql<number>`sum(${usageBuckets.requests})`.mapWith(Number);
const errors = sql<number>`sum(${usageBuckets.errors})`.mapWith(Number);

/** The plans with the most traffic (billed bytes) or the most errors since a moment, with their totals. */
export async function listTopPlans(
  db: Executor,
  params: { since: Date; by: 'bytes' | 'errors'; limit: number },
): Promise<Array<PlanOwner & { billedBytes: number; requests: number; errors: number }>> {
  const order: SQL = params.by === 'bytes' ? desc(billed) : desc(errors);
  return db
    .select({ ...ownerColumns, billedBytes: billed, requests, errors })
    .from(usageBuckets)
    .innerJoin(plans, eq(plans.id, usageBuckets.planId))
    .innerJoin(users, eq(users.id, plans.userId))
    .where(gte(usageBuckets.bucketStart, params.since))
    .groupBy(plans.id, users.id)
    .having(params.by === 'bytes' ? gt(billed, 0) : gt(errors, 0))
    .orderBy(order, asc(plans.login))
    .limit(params.limit);
}

/** Refusals and failures by error code since a moment, all plans together, most frequent first. */
export async function countErrorsByCode(
  db: Executor,
  params: { since: Date },
): Promise<Array<{ code: string; count: number }>> {
  const total = sql<number>`sum(${usageErrors.count})`.mapWith(Number);
  return db
    .select({ code: usageErrors.code, count: total })
    .from(usageErrors)
    .where(gte(usageErrors.bucketStart, params.since))
    .groupBy(usageErrors.code)
    .orderBy(desc(total), asc(usageErrors.code));
}

/** The plans that hit some codes the most since a moment (blocked hosts and ports: who tries them). */
export async function listTopPlansByCodes(
  db: Executor,
  params: { since: Date; codes: string[]; limit: number },
): Promise<Array<PlanOwner & { code: string; count: number }>> {
  if (params.codes.length === 0) {
    return [];
  }
  const total = sql<number>`sum(${usageErrors.count})`.mapWith(Number);
  return db
    .select({ ...ownerColumns, code: usageErrors.code, count: total })
    .from(usageErrors)
    .innerJoin(plans, eq(plans.id, usageErrors.planId))
    .innerJoin(users, eq(users.id, plans.userId))
    .where(and(gte(usageErrors.bucketStart, params.since), inArray(usageErrors.code, params.codes)))
    .groupBy(plans.id, users.id, usageErrors.code)
    .orderBy(desc(total), asc(plans.login))
    .limit(params.limit);
}

/** Requests and errors of all plans per hour since a moment (hours without traffic are left out). */
export async function sumUsageByHour(
  db: Executor,
  params: { since: Date },
): Promise<Array<{ hour: Date; requests: number; errors: number; billedBytes: number }>> {
  return db
    .select({ hour: usageBuckets.bucketStart, requests, errors, billedBytes: billed })
    .from(usageBuckets)
    .where(gte(usageBuckets.bucketStart, params.since))
    .groupBy(usageBuckets.bucketStart)
    .orderBy(asc(usageBuckets.bucketStart));
}

/** Who the given plans belong to (the plans holding connections now, named for the view). */
export async function listPlanOwners(db: Executor, params: { planIds: string[] }): Promise<PlanOwner[]> {
  if (params.planIds.length === 0) {
    return [];
  }
  return db
    .select(ownerColumns)
    .from(plans)
    .innerJoin(users, eq(users.id, plans.userId))
    .where(inArray(plans.id, params.planIds));
}
