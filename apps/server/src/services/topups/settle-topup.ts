import { centsToDollars } from '@bytegate/contracts/money';
import type { Transaction } from '@bytegate/db';
import {
  insertLedgerEntry,
  type LedgerEntryRow,
  lockOrder,
  lockUserBalance,
  type OrderRow,
  updateOrder,
} from '@bytegate/db/queries';
import type { InvoiceSnapshot } from '../../payments/provider.ts';
import { recordActivity } from '../activity/record-activity.ts';
import { orderNumberLabel } from '../billing/present-order.ts';
import type { ServiceContext } from '../context.ts';
import { notify } from '../notifications/notify.ts';

export type SettleResult = 'credited' | 'failed' | 'pending' | 'review' | 'already-settled' | 'mismatch';

/**
 * The amount a settled invoice credits (docs/money.md, "Top-ups"): the invoice amount when paid in full or
 * over; when the payer stopped short, what actually arrived in USD (never more than the invoice); else
 * 0. Null: paid short with no USD figure, so nobody can say what to credit (manual review).
 */
export function creditForSnapshot(snapshot: InvoiceSnapshot): number | null {
  if (snapshot.outcome === 'success') {
    return snapshot.amountCents;
  }
  if (snapshot.outcome === 'partial') {
    return snapshot.paidCents === null
      ? null
      : Math.min(Math.max(0, snapshot.paidCents), snapshot.amountCents);
  }
  return 0;
}

/**
 * Applies what the provider says about a top-up's invoice, exactly once. Runs from webhooks, polls and
 * retries alike: the order row lock serializes them, a settled order never changes again, and a unique
 * index on the ledger makes a second credit impossible even if all else failed. The snapshot must come
 * from the provider itself, never from a webhook body.
 */
export async function settleTopup(
  ctx: ServiceContext,
  orderId: string,
  snapshot: InvoiceSnapshot,
  options: SettleOptions = {},
): Promise<SettleResult> {
  const result = await settleLocked(ctx, orderId, snapshot, options);
  if (result === 'review') {
    // Logged once, after the commit: only the call that moved the order to review gets here.
    ctx.log?.warn(
      { orderId, providerStatus: snapshot.rawStatus, payerPaid: snapshot.payerPaid ?? null },
      'top-up paid short without a USD amount: held for manual review, nothing credited',
    );
  }
  return result;
}

export interface SettleOptions {
  /**
   * Runs in the settling transaction when the order changed (credited, failed or held for review),
   * with the order as it was: staff's "check with provider" writes its audit entry there.
   */
  onChange?: (
    tx: Transaction,
    change: { before: OrderRow; result: 'credited' | 'failed' | 'review'; snapshot: InvoiceSnapshot },
  ) => Promise<void>;
}

async function settleLocked(
  ctx: ServiceContext,
  orderId: string,
  snapshot: InvoiceSnapshot,
  options: SettleOptions,
): Promise<SettleResult> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, { orderId });
    if (order?.kind !== 'topup') {
      return 'mismatch';
    }
    if (!matches(order, snapshot)) {
      return 'mismatch';
    }
    if (order.status !== 'pending') {
      await updateOrder(tx, { orderId, set: { providerStatus: snapshot.rawStatus } });
      return 'already-settled';
    }
    if (snapshot.outcome === 'pending') {
      await updateOrder(tx, { orderId, set: { providerStatus: snapshot.rawStatus } });
      return 'pending';
    }
    const creditCents = creditForSnapshot(snapshot);
    if (creditCents === null) {
      // Never guess an amount from a coin figure: hold the order for a person (docs/money.md, "Payments in production").
      await updateOrder(tx, {
        orderId,
        set: {
          status: 'review',
          providerStatus: snapshot.rawStatus,
          details: {
            ...order.details,
            review: { reason: 'partial payment without a USD amount', payerPaid: snapshot.payerPaid ?? null },
          },
        },
      });
      await recordActivity(tx, {
        userId: order.userId,
        kind: 'topup_held',
        details: {
          orderId: orderNumberLabel(order.number),
          amountCents: order.amountCents,
          provider: order.paymentMethod,
        },
      });
      await options.onChange?.(tx, { before: order, result: 'review', snapshot });
      return 'review';
    }
    if (creditCents === 0) {
      await updateOrder(tx, { orderId, set: { status: 'failed', providerStatus: snapshot.rawStatus } });
      await recordActivity(tx, {
        userId: order.userId,
        kind: 'topup_failed',
        details: {
          orderId: orderNumberLabel(order.number),
          amountCents: order.amountCents,
          provider: order.paymentMethod,
          // Cryptomus says `cancel` of an invoice left unpaid until it ran out; Bitcart says `expired`.
          outcome: /expire|cancel/i.test(snapshot.rawStatus) ? 'expired' : 'failed',
        },
      });
      await options.onChange?.(tx, { before: order, result: 'failed', snapshot });
      return 'failed';
    }
    await creditTopupLocked(tx, order, { creditCents, providerStatus: snapshot.rawStatus });
    await options.onChange?.(tx, { before: order, result: 'credited', snapshot });
    return 'credited';
  });
}

/**
 * The one way a top-up's money reaches a balance: under the order's lock (the caller's), the account's
 * row lock, a 'topup' ledger row (a unique index allows one per order, so a second credit fails
 * whatever raced above it) and the order completed with what it credited. Used by settling and by
 * staff approving an order held for review.
 */
export async function creditTopupLocked(
  tx: Transaction,
  order: OrderRow,
  props: {
    creditCents: number;
    providerStatus?: string | null;
    reason?: string | null;
    /** Staff approving a top-up held for review (the activity feed says so). */
    isReviewed?: boolean;
  },
): Promise<LedgerEntryRow> {
  await lockUserBalance(tx, { userId: order.userId });
  const entry = await insertLedgerEntry(tx, {
    userId: order.userId,
    kind: 'topup',
    amountCents: props.creditCents,
    orderId: order.id,
    reason: props.reason ?? null,
  });
  await updateOrder(tx, {
    orderId: order.id,
    set: {
      status: 'completed',
      ...(props.providerStatus === undefined ? {} : { providerStatus: props.providerStatus }),
      creditedCents: props.creditCents,
      completedAt: new Date(),
    },
  });
  await notify(tx, {
    userId: order.userId,
    kind: 'topup_credited',
    data: {
      order_id: orderNumberLabel(order.number),
      credited_usd: centsToDollars(props.creditCents),
      balance_usd: centsToDollars(entry.balanceAfterCents),
      provider: order.paymentMethod,
    },
  });
  await recordActivity(tx, {
    userId: order.userId,
    kind: 'topup_credited',
    details: {
      orderId: orderNumberLabel(order.number),
      amountCents: order.amountCents,
      creditedCents: props.creditCents,
      provider: order.paymentMethod,
      isReviewed: props.isReviewed === true,
    },
  });
  return entry;
}

/** The provider's invoice must be the one we opened: same order, invoice id, currency and amount. */
function matches(order: OrderRow, snapshot: InvoiceSnapshot): boolean {
  return (
    snapshot.orderId === order.id &&
    (order.providerInvoiceId === null || order.providerInvoiceId === snapshot.invoiceId) &&
    snapshot.currency.toUpperCase() === order.currency &&
    snapshot.amountCents === order.amountCents
  );
}
