import {
  MAX_REQUESTED_THREADS,
  threadRequestMessages as messages,
  type ThreadRequest,
} from '@bytegate/contracts/thread-requests';
import { findPendingThreadRequest, insertThreadRequest, lockPlanForPool } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { getOwnPlan } from '../plans/get-own-plan.ts';
import { presentThreadRequest } from './present-thread-request.ts';

export interface CreateThreadRequestProps {
  userId: string;
  /** One of the user's plans; another user's is a 404. */
  planId: string;
  requestedThreads: number;
  /** What the threads are for (the schema has trimmed and bounded it). */
  purpose: string;
  company?: string | undefined;
  /** An http(s) URL (the schema has checked it and added a missing scheme). */
  website?: string | undefined;
}

/**
 * Asks support for more threads on one of the customer's active plans: more than its limit now, at
 * most MAX_REQUESTED_THREADS, one pending request a plan. The plan row is locked, so its limit cannot
 * move between the check and the insert (staff change it under the same lock).
 */
export async function createThreadRequest(
  ctx: ServiceContext,
  props: CreateThreadRequestProps,
): Promise<ThreadRequest> {
  return ctx.db.transaction(async (tx) => {
    const owned = await getOwnPlan(tx, { userId: props.userId, planId: props.planId });
    const plan = await lockPlanForPool(tx, { userId: props.userId, poolType: owned.poolType });
    if (!plan?.isActive) {
      throw new DomainError('NOT_FOUND', 'No plan found');
    }
    if (plan.threadLimit >= MAX_REQUESTED_THREADS) {
      throw new DomainError('VALIDATION_FAILED', messages.atMaximum, { field: 'requestedThreads' });
    }
    if (props.requestedThreads <= plan.threadLimit) {
      throw new DomainError('VALIDATION_FAILED', messages.threadsNotMore(plan.threadLimit), {
        field: 'requestedThreads',
      });
    }
    if (await findPendingThreadRequest(tx, { planId: plan.id })) {
      throw new DomainError('THREAD_REQUEST_PENDING', messages.alreadyPending);
    }
    const row = await insertThreadRequest(tx, {
      userId: props.userId,
      planId: plan.id,
      currentThreads: plan.threadLimit,
      requestedThreads: props.requestedThreads,
      purpose: props.purpose,
      company: props.company ?? null,
      website: props.website ?? null,
    });
    // The unique index's answer when another request got in first.
    if (!row) {
      throw new DomainError('THREAD_REQUEST_PENDING', messages.alreadyPending);
    }
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'thread_request_created',
      details: { poolType: plan.poolType, requestedThreads: props.requestedThreads },
    });
    return presentThreadRequest(row, plan);
  });
}
