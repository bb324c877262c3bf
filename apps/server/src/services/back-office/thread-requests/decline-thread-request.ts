import {
  type AdminThreadRequest,
  threadRequestMessages as messages,
} from '@bytegate/contracts/thread-requests';
import {
  closeThreadRequest,
  getActiveUserById,
  getPlanById,
  insertAuditEntry,
  lockThreadRequest,
} from '@bytegate/db/queries';
import { recordActivity } from '../../activity/record-activity.ts';
import type { MailContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { checkMayActOn } from '../lock-customer.ts';
import type { StaffActor } from '../staff-actor.ts';
import { getAdminThreadRequest } from './list-thread-request-queue.ts';
import { notifyThreadRequestDecision } from './notify-decision.ts';

/**
 * Declines a pending request with a message the customer reads in their dashboard and by mail; the
 * plan's limit stays. Audited; support may not decide on a staff member's plan. Nothing but the
 * request changes, so only its row is locked (the owner and the plan are read).
 */
export async function declineThreadRequest(
  ctx: MailContext,
  props: { requestId: string; message: string; actor: StaffActor },
): Promise<AdminThreadRequest> {
  const decided = await ctx.db.transaction(async (tx) => {
    const request = await lockThreadRequest(tx, { requestId: props.requestId });
    if (!request) {
      throw new DomainError('NOT_FOUND', messages.notFound);
    }
    const owner = await getActiveUserById(tx, { userId: request.userId });
    if (owner) {
      checkMayActOn(props.actor, owner);
    }
    if (request.status !== 'pending') {
      throw new DomainError('THREAD_REQUEST_CLOSED', messages.notPending(request.status));
    }
    const plan = await getPlanById(tx, { userId: request.userId, planId: request.planId });
    if (!plan) {
      throw new DomainError('NOT_FOUND', messages.notFound);
    }
    const closed = await closeThreadRequest(tx, {
      requestId: request.id,
      status: 'declined',
      decisionMessage: props.message,
      decidedByUserId: props.actor.userId,
      decidedByEmail: props.actor.email,
      decidedAt: new Date(),
    });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'thread_request.decline',
      targetType: 'plan',
      targetId: plan.id,
      before: {
        status: 'pending',
        requestedThreads: request.requestedThreads,
        threadLimit: plan.threadLimit,
        userId: plan.userId,
        threadRequestId: request.id,
      },
      after: {
        status: 'declined',
        threadLimit: plan.threadLimit,
        userId: plan.userId,
        threadRequestId: request.id,
      },
      reason: props.message,
    });
    // Support's message is written for the customer (they read it with the request and by mail).
    await recordActivity(tx, {
      userId: plan.userId,
      kind: 'support_thread_request_declined',
      details: {
        poolType: plan.poolType,
        requestedThreads: request.requestedThreads,
        message: props.message,
      },
    });
    return { request: closed, plan, owner };
  });
  await notifyThreadRequestDecision(ctx, decided);
  return getAdminThreadRequest(ctx, { requestId: props.requestId });
}
