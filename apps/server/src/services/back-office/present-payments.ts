import type { AdminOrder } from '@bytegate/contracts/admin';
import type { Payment, PaymentEvent } from '@bytegate/contracts/admin-payments';
import { centsToDollars } from '@bytegate/contracts/money';
import type { OrderRow, PaymentEventRow } from '@bytegate/db/queries';
import { orderNumberLabel, presentOrder } from '../billing/present-order.ts';
import { refundableUntil } from './refund-amounts.ts';

// What staff see of orders and payments: the customer's view of an order plus its money, refund and
// provider facts, and a webhook as it arrived.

/**
 * Whether asking for a refund makes sense now: a completed order not refunded yet, a purchase within
 * its window, a top-up that credited something. The refund itself re-checks all of it under locks.
 */
function canRefund(row: OrderRow, now: Date): boolean {
  if (row.status !== 'completed' || row.refundedAt || !row.completedAt) {
    return false;
  }
  return row.kind === 'purchase'
    ? now.getTime() <= refundableUntil(row.completedAt).getTime()
    : row.creditedCents > 0;
}

export function presentAdminOrder(row: OrderRow, publicUrl: string, now = new Date()): AdminOrder {
  return {
    ...presentOrder(row, publicUrl),
    kind: row.kind,
    credited: centsToDollars(row.creditedCents),
    refunded: centsToDollars(row.refundedCents),
    refundedAt: row.refundedAt?.toISOString() ?? null,
    refundableUntil:
      row.kind === 'purchase' && row.completedAt ? refundableUntil(row.completedAt).toISOString() : null,
    canRefund: canRefund(row, now),
  };
}

/** Why a top-up is held for review and what the payer sent, as settling it stored them. */
function reviewOf(row: OrderRow): Payment['review'] {
  if (row.status !== 'review') {
    return null;
  }
  const review = (row.details.review ?? {}) as { reason?: unknown; payerPaid?: unknown };
  const paid = review.payerPaid as { currency?: unknown; amount?: unknown } | null | undefined;
  return {
    reason: typeof review.reason === 'string' ? review.reason : 'held for review',
    payerPaid:
      paid && typeof paid.currency === 'string' && typeof paid.amount === 'string'
        ? { currency: paid.currency, amount: paid.amount }
        : null,
  };
}

export function presentPayment(row: OrderRow, email: string, eventCount: number): Payment {
  return {
    orderId: orderNumberLabel(row.number),
    kind: row.kind,
    userId: row.userId,
    email,
    description: row.description,
    provider: row.paymentMethod,
    status: row.status,
    providerStatus: row.providerStatus,
    invoiceId: row.providerInvoiceId,
    amount: centsToDollars(row.amountCents),
    credited: centsToDollars(row.creditedCents),
    refunded: centsToDollars(row.refundedCents),
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
    eventCount,
    review: reviewOf(row),
  };
}

export function presentPaymentEvent(row: PaymentEventRow): PaymentEvent {
  return {
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
    sourceIp: row.sourceIp,
    isSignatureValid: row.isSignatureValid,
    claimedStatus: row.claimedStatus,
    outcome: row.outcome,
    rawBody: row.rawBody,
  };
}
