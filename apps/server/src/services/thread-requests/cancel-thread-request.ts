import { threadRequestMessages as messages, type ThreadRequest } from '@bytegate/contracts/thread-requests';
import { closeThreadRequest, getPlanById, lockThreadRequest } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { presentThreadRequest } from './present-thread-request.ts';

/**
 * The customer withdraws a pending request (to ask for another number, or no longer needing it).
 * Only the request row is locked: approving locks the plan and then the request, so this cannot
 * deadlock with it, and whichever commits first wins (the other sees it closed).
 */
export async function cancelThreadRequest(
  ctx: ServiceContext,
  props: { userId: string; requestId: string },
): Promise<ThreadRequest> {
  return ctx.db.transaction(async (tx) => {
    const request = await lockThreadRequest(tx, props);
    if (!request) {
      throw new DomainError('NOT_FOUND', messages.notFound);
    }
    if (request.status !== 'pending') {
      throw new DomainError('THREAD_REQUEST_CLOSED', messages.notPending(request.status));
    }
    const closed = await closeThreadRequest(tx, {
      requestId: request.id,
      status: 'cancelled',
      decidedAt: new Date(),
    });
    const plan = await getPlanById(tx, { userId: props.userId, planId: request.planId });
    if (!plan) {
      throw new DomainError('NOT_FOUND', messages.notFound);
    }
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'thread_request_cancelled',
      details: { poolType: plan.poolType, requestedThreads: request.requestedThreads },
    });
    return presentThreadRequest(closed, plan);
  });
}
