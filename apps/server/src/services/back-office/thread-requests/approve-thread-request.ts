import { REASON_MAX_LENGTH } from '@bytegate/contracts/admin';
import {
  type AdminThreadRequest,
  threadRequestMessages as messages,
} from '@bytegate/contracts/thread-requests';
import { closeThreadRequest, getThreadRequestInFull, lockThreadRequest } from '@bytegate/db/queries';
import { recordActivity } from '../../activity/record-activity.ts';
import type { MailContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { lockPlanForStaff, writeThreadLimit } from '../change-thread-limit.ts';
import type { StaffActor } from '../staff-actor.ts';
import { getAdminThreadRequest } from './list-thread-request-queue.ts';
import { notifyThreadRequestDecision } from './notify-decision.ts';

export interface ApproveThreadRequestProps {
  requestId: string;
  /** What to grant; what the customer asked when absent. */
  grantedThreads?: number | undefined;
  /** A note to the customer, shown in their dashboard and mailed. */
  message?: string | undefined;
  actor: StaffActor;
}

/**
 * Approves a pending request: the plan's thread limit becomes the granted number in the same
 * transaction (the gateway applies it within 2 s), with one audit entry, and then the customer is
 * mailed. Locks as a thread limit change does, the plan first, then the request; support may not
 * approve on a staff member's plan. The grant must raise the limit as it is now.
 */
export async function approveThreadRequest(
  ctx: MailContext,
  props: ApproveThreadRequestProps,
): Promise<AdminThreadRequest> {
  const found = await getThreadRequestInFull(ctx.db, { requestId: props.requestId });
  if (!found) {
    throw new DomainError('NOT_FOUND', messages.notFound);
  }
  const decided = await ctx.db.transaction(async (tx) => {
    const { plan, owner } = await lockPlanForStaff(tx, { planId: found.plan.id, actor: props.actor });
    const request = await lockThreadRequest(tx, { requestId: props.requestId });
    if (!request) {
      throw new DomainError('NOT_FOUND', messages.notFound);
    }
    if (request.status !== 'pending') {
      throw new DomainError('THREAD_REQUEST_CLOSED', messages.notPending(request.status));
    }
    const granted = props.grantedThreads ?? request.requestedThreads;
    if (granted <= plan.threadLimit) {
      throw new DomainError('VALIDATION_FAILED', messages.grantedNotMore(plan.threadLimit), {
        field: 'grantedThreads',
      });
    }
    const closed = await closeThreadRequest(tx, {
      requestId: request.id,
      status: 'approved',
      grantedThreads: granted,
      decisionMessage: props.message ?? null,
      decidedByUserId: props.actor.userId,
      decidedByEmail: props.actor.email,
      decidedAt: new Date(),
    });
    const changed = await writeThreadLimit(tx, {
      plan,
      threadLimit: granted,
      actor: props.actor,
      action: 'thread_request.approve',
      // Staff's note is the why; without one, the customer's own purpose is.
      reason: props.message ?? `Customer's request: ${request.purpose}`.slice(0, REASON_MAX_LENGTH),
      before: { status: 'pending', requestedThreads: request.requestedThreads, threadRequestId: request.id },
      after: { status: 'approved', threadRequestId: request.id },
    });
    await recordActivity(tx, {
      userId: plan.userId,
      kind: 'support_thread_request_approved',
      details: { poolType: plan.poolType, grantedThreads: granted, message: props.message ?? null },
    });
    return { request: closed, plan: changed, owner };
  });
  await notifyThreadRequestDecision(ctx, decided);
  return getAdminThreadRequest(ctx, { requestId: props.requestId });
}
