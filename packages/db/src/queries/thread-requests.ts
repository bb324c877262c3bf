import { and, asc, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { plans } from '../schema/plans.ts';
import { threadRequests } from '../schema/support.ts';
import { usageBuckets, usageErrors } from '../schema/traffic.ts';
import type { PlanRow } from './plans.ts';
import type { UserRow } from './users.ts';

// Customers' requests for more threads on a plan, and the staff queue of them. The customer's queries
// put the owner in `where`; the staff ones are authorized by the guard on /api/admin.

export type ThreadRequestRow = typeof threadRequests.$inferSelect;
export type NewThreadRequest = typeof threadRequests.$inferInsert;
export type ThreadRequestStatus = ThreadRequestRow['status'];

/** A request with the plan it is about (the customer's view names the plan and its pool). */
export interface ThreadRequestWithPlan {
  request: ThreadRequestRow;
  plan: PlanRow;
}

/** A request with its customer and plan, as the staff queue shows it. */
export interface ThreadRequestInFull extends ThreadRequestWithPlan {
  user: UserRow;
}

/**
 * Adds a pending request. Answers null when the plan already has one pending: the partial unique
 * index decides, so two requests sent at once cannot both get in.
 */
export async function insertThreadRequest(
  tx: Executor,
  params: Omit<NewThreadRequest, 'status'>,
): Promise<ThreadRequestRow | null> {
  const [row] = await tx
    .insert(threadRequests)
    .values({ ...params, status: 'pending' })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/** The plan's pending request, if there is one. */
export async function findPendingThreadRequest(
  db: Executor,
  params: { planId: string },
): Promise<ThreadRequestRow | null> {
  const [row] = await db
    .select()
    .from(threadRequests)
    .where(and(eq(threadRequests.planId, params.planId), eq(threadRequests.status, 'pending')))
    .limit(1);
  return row ?? null;
}

/** A user's requests with their plans, newest first. */
export async function listUserThreadRequests(
  db: Executor,
  params: { userId: string; limit: number },
): Promise<ThreadRequestWithPlan[]> {
  return db
    .select({ request: threadRequests, plan: plans })
    .from(threadRequests)
    .innerJoin(plans, eq(plans.id, threadRequests.planId))
    .where(eq(threadRequests.userId, params.userId))
    .orderBy(desc(threadRequests.createdAt), desc(threadRequests.id))
    .limit(params.limit);
}

/**
 * Locks a request for the rest of the transaction; with `userId`, only that user's (another user's
 * is as missing as none). Null when there is none.
 */
export async function lockThreadRequest(
  tx: Executor,
  params: { requestId: string; userId?: string },
): Promise<ThreadRequestRow | null> {
  const [row] = await tx
    .select()
    .from(threadRequests)
    .where(
      params.userId === undefined
        ? eq(threadRequests.id, params.requestId)
        : and(eq(threadRequests.id, params.requestId), eq(threadRequests.userId, params.userId)),
    )
    .for('update');
  return row ?? null;
}

/** Closes a pending request: approved (with what was granted), declined, or cancelled by the customer. */
export async function closeThreadRequest(
  tx: Executor,
  params: {
    requestId: string;
    status: Exclude<ThreadRequestStatus, 'pending'>;
    grantedThreads?: number | null;
    decisionMessage?: string | null;
    decidedByUserId?: string | null;
    decidedByEmail?: string | null;
    decidedAt: Date;
  },
): Promise<ThreadRequestRow> {
  const [row] = await tx
    .update(threadRequests)
    .set({
      status: params.status,
      grantedThreads: params.grantedThreads ?? null,
      decisionMessage: params.decisionMessage ?? null,
      decidedByUserId: params.decidedByUserId ?? null,
      decidedByEmail: params.decidedByEmail ?? null,
      decidedAt: params.decidedAt,
    })
    .where(and(eq(threadRequests.id, params.requestId), eq(threadRequests.status, 'pending')))
    .returning();
  if (!row) {
    throw new Error(`thread request ${params.requestId} was not pending`);
  }
  return row;
}

/** One request with its customer and plan; null when there is none. */
export async function getThreadRequestInFull(
  db: Executor,
  params: { requestId: string },
): Promise<ThreadRequestInFull | null> {
  const [row] = await db
    .select({ request: threadRequests, plan: plans, user: users })
    .from(threadRequests)
    .innerJoin(plans, eq(plans.id, threadRequests.planId))
    .innerJoin(users, eq(users.id, threadRequests.userId))
    .where(eq(threadRequests.id, params.requestId))
    .limit(1);
  return row ?? null;
}

/**
 * One page of the staff queue with customers and plans. Without a status: pending first, oldest
 * first (the order to work through them), then the rest by when they closed, newest first. With a
 * status: pending oldest first, the others newest closed first.
 */
export async function listThreadRequestsInFull(
  db: Executor,
  params: { status?: ThreadRequestStatus | undefined; limit: number; offset: number },
): Promise<{ rows: ThreadRequestInFull[]; total: number }> {
  const where = params.status ? eq(threadRequests.status, params.status) : undefined;
  const isPending = sql`${threadRequests.status} = 'pending'`;
  const rows = await db
    .select({ request: threadRequests, plan: plans, user: users })
    .from(threadRequests)
    .innerJoin(plans, eq(plans.id, threadRequests.planId))
    .innerJoin(users, eq(users.id, threadRequests.userId))
    .where(where)
    .orderBy(
      desc(isPending),
      asc(sql`case when ${isPending} then ${threadRequests.createdAt} end`),
      desc(sql`coalesce(${threadRequests.decidedAt}, ${threadRequests.createdAt})`),
      desc(threadRequests.id),
    )
    .limit(params.limit)
    .offset(params.offset);
  const [totals] = await db.select({ total: count() }).from(threadRequests).where(where);
  return { rows, total: totals?.total ?? 0 };
}

/** How many requests there are in each status. */
export async function countThreadRequestsByStatus(
  db: Executor,
): Promise<Record<ThreadRequestStatus, number>> {
  const rows = await db
    .select({ status: threadRequests.status, total: count() })
    .from(threadRequests)
    .groupBy(threadRequests.status);
  const counts: Record<ThreadRequestStatus, number> = { pending: 0, approved: 0, declined: 0, cancelled: 0 };
  for (const row of rows) {
    counts[row.status] = row.total;
  }
  return counts;
}

export interface PlanThreadUsage {
  requests: number;
  errors: number;
  /** Connections refused because every thread was busy (the gateway's THREADS_EXHAUSTED). */
  threadsExhausted: number;
}

/** Per plan, its requests, errors and THREADS_EXHAUSTED refusals since a moment (plans without any are absent). */
export async function sumPlanThreadUsage(
  db: Executor,
  params: { planIds: string[]; since: Date },
): Promise<Map<string, PlanThreadUsage>> {
  const usage = new Map<string, PlanThreadUsage>();
  if (params.planIds.length === 0) {
    return usage;
  }
  const traffic = await db
    .select({
      planId: usageBuckets.planId,
      requests: sql<string>`sum(${usageBuckets.requests})`,
      errors: sql<string>`sum(${usageBuckets.errors})`,
    })
    .from(usageBuckets)
    .where(and(inArray(usageBuckets.planId, params.planIds), gte(usageBuckets.bucketStart, params.since)))
    .groupBy(usageBuckets.planId);
  const exhausted = await db
    .select({ planId: usageErrors.planId, count: sql<string>`sum(${usageErrors.count})` })
    .from(usageErrors)
    .where(
      and(
        inArray(usageErrors.planId, params.planIds),
        gte(usageErrors.bucketStart, params.since),
        eq(usageErrors.code, 'THREADS_EXHAUSTED'),
      ),
    )
    .groupBy(usageErrors.planId);
  const entry = (planId: string) => {
    let known = usage.get(planId);
    if (!known) {
      known = { requests: 0, errors: 0, threadsExhausted: 0 };
      usage.set(planId, known);
    }
    return known;
  };
  for (const row of traffic) {
    Object.assign(entry(row.planId), { requests: Number(row.requests), errors: Number(row.errors) });
  }
  for (const row of exhausted) {
    entry(row.planId).threadsExhausted = Number(row.count);
  }
  return usage;
}

/** Cancels every pending request of a user (their account is being deleted: nothing is left to raise). */
export async function cancelUserThreadRequests(
  tx: Executor,
  params: { userId: string; now: Date },
): Promise<void> {
  await tx
    .update(threadRequests)
    .set({ status: 'cancelled', decidedAt: params.now })
    .where(and(eq(threadRequests.userId, params.userId), eq(threadRequests.status, 'pending')));
}
