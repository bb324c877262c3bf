import { formatUsd } from '@bytegate/contracts/money';
import type { Transaction } from '@bytegate/db';
import { insertAuditEntry, lockOrder, type OrderRow, updateOrder } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import { orderNumberLabel } from '../billing/present-order.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { creditTopupLocked } from '../topups/settle-topup.ts';
import { findOrderForStaff } from './list-payments.ts';
import { lockCustomer } from './lock-customer.ts';
import type { StaffActor } from './staff-actor.ts';
import { checkSupportAllowance } from './support-allowance.ts';

/**
 * Locks a top-up held for review and its owner's account (the order first, as settling does), else
 * the refusal: unknown, not a top-up, or no longer under review (settled by someone else meanwhile).
 */
async function lockHeldTopup(
  tx: Transaction,
  props: { orderId: string; actor: StaffActor },
): Promise<{ order: OrderRow; balanceCents: number }> {
  const order = await lockOrder(tx, { orderId: props.orderId });
  const label = order ? orderNumberLabel(order.number) : '';
  if (order?.kind !== 'topup') {
    throw new DomainError('NOT_FOUND', `${label || 'The order'} is not a top-up`);
  }
  const user = await lockCustomer(tx, order.userId, props.actor);
  if (order.status !== 'review') {
    throw new DomainError('CONFLICT', `${label} is not held for review: it is ${order.status}`);
  }
  return { order, balanceCents: user.balanceCents };
}

/**
 * Approves a top-up held for review (a partial payment nobody could price): credits what staff found
 * arrived, at most what the invoice asked, through the same crediting path as settling, so the ledger's
 * unique index allows it once. The order completes; its audit entry is written in the same transaction.
 */
export async function approveTopup(
  ctx: ServiceContext,
  props: { orderLabel: string; amountCents: number; reason: string; actor: StaffActor },
): Promise<void> {
  if (!Number.isSafeInteger(props.amountCents) || props.amountCents <= 0) {
    throw new DomainError('VALIDATION_FAILED', 'The amount must be more than zero');
  }
  const found = await findOrderForStaff(ctx, props.orderLabel);
  await ctx.db.transaction(async (tx) => {
    const { order, balanceCents } = await lockHeldTopup(tx, { orderId: found.id, actor: props.actor });
    if (props.amountCents > order.amountCents) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `The amount must be at most the invoice's ${formatUsd(order.amountCents)}; credit an overpayment with a balance adjustment`,
      );
    }
    await checkSupportAllowance(tx, {
      actor: props.actor,
      customerId: order.userId,
      amountCents: props.amountCents,
    });
    const entry = await creditTopupLocked(tx, order, {
      creditCents: props.amountCents,
      reason: props.reason,
      isReviewed: true,
    });
    const label = orderNumberLabel(order.number);
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'topup.approve',
      targetType: 'user',
      targetId: order.userId,
      before: { status: 'review', balanceCents },
      after: {
        order: label,
        status: 'completed',
        balanceCents: entry.balanceAfterCents,
        amountCents: props.amountCents,
        orderId: order.id,
        ledgerEntryId: entry.id,
      },
      reason: props.reason,
    });
  });
}

/** Rejects a top-up held for review: it fails and credits nothing; audited in the same transaction. */
export async function rejectTopup(
  ctx: ServiceContext,
  props: { orderLabel: string; reason: string; actor: StaffActor },
): Promise<void> {
  const found = await findOrderForStaff(ctx, props.orderLabel);
  await ctx.db.transaction(async (tx) => {
    const { order } = await lockHeldTopup(tx, { orderId: found.id, actor: props.actor });
    await updateOrder(tx, { orderId: order.id, set: { status: 'failed' } });
    const label = orderNumberLabel(order.number);
    await recordActivity(tx, {
      userId: order.userId,
      kind: 'topup_failed',
      details: {
        orderId: label,
        amountCents: order.amountCents,
        provider: order.paymentMethod,
        outcome: 'rejected',
      },
    });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'topup.reject',
      targetType: 'user',
      targetId: order.userId,
      before: { status: 'review' },
      after: { order: label, status: 'failed', orderId: order.id },
      reason: props.reason,
    });
  });
}
