import { SUPPORT_BALANCE_LIMIT_CENTS } from '@bytegate/contracts/admin';
import type { RefundPreview } from '@bytegate/contracts/admin-payments';
import { centsToDollars, formatUsd } from '@bytegate/contracts/money';
import type { Transaction } from '@bytegate/db';
import {
  getOrderByNumberForStaff,
  insertAuditEntry,
  insertLedgerEntry,
  lockOrder,
  lockPlanForPool,
  type OrderRow,
  type PlanRow,
  takePlanTraffic,
  updateOrder,
} from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import { orderNumberLabel, parseOrderNumberLabel } from '../billing/present-order.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { lockCustomer } from './lock-customer.ts';
import { boughtBytesOf, purchaseRefund, refundableUntil } from './refund-amounts.ts';
import { hasRole, type StaffActor } from './staff-actor.ts';
import { checkSupportAllowance, getSupportAllowance } from './support-allowance.ts';

/** What a refund would move, and why it cannot be made now (null when it can). */
interface RefundDecision {
  order: OrderRow;
  /** Positive cents: credited back (purchase) or taken off (top-up). */
  amountCents: number;
  boughtBytes: number | null;
  refundBytes: number | null;
  plan: PlanRow | null;
  balanceCents: number;
  refundableUntil: Date | null;
  refusal: DomainError | null;
}

const dateOf = (date: Date) => date.toISOString().slice(0, 10);

/** The pure rule (docs/money.md, "Refunds"): what refunding `order` moves now, or the refusal. */
function decideRefund(facts: {
  order: OrderRow;
  balanceCents: number;
  plan: PlanRow | null;
  now: Date;
}): RefundDecision {
  const { order, plan, balanceCents, now } = facts;
  const label = orderNumberLabel(order.number);
  const base = { order, plan, balanceCents, boughtBytes: null, refundBytes: null, refundableUntil: null };
  const refuse = (code: 'CONFLICT' | 'INSUFFICIENT_BALANCE', message: string, amountCents = 0) => ({
    ...base,
    amountCents,
    refusal: new DomainError(code, message),
  });
  if (order.refundedAt) {
    return refuse(
      'CONFLICT',
      `${label} was already refunded (${formatUsd(order.refundedCents)} on ${dateOf(order.refundedAt)})`,
      order.refundedCents,
    );
  }
  if (order.status !== 'completed' || !order.completedAt) {
    return refuse('CONFLICT', `Only a completed order can be refunded; ${label} is ${order.status}`);
  }
  if (order.kind === 'topup') {
    const amountCents = order.creditedCents;
    if (amountCents <= 0) {
      return refuse('CONFLICT', `${label} credited nothing, so there is nothing to take back`);
    }
    if (balanceCents < amountCents) {
      return refuse(
        'INSUFFICIENT_BALANCE',
        `The balance is ${formatUsd(balanceCents)}, less than the ${formatUsd(amountCents)} ${label} credited: only ${formatUsd(balanceCents)} is left to take back. Adjust the balance instead.`,
        amountCents,
      );
    }
    return { ...base, amountCents, refusal: null };
  }
  const until = refundableUntil(order.completedAt);
  const boughtBytes = boughtBytesOf(order.details);
  if (!boughtBytes || !plan) {
    return refuse('CONFLICT', `${label} does not say which traffic it bought, so it cannot be refunded here`);
  }
  const { refundBytes, refundCents } = purchaseRefund({
    amountCents: order.amountCents,
    boughtBytes,
    planTotalBytes: plan.trafficTotalBytes,
    planUsedBytes: plan.trafficUsedBytes,
  });
  const decided = { ...base, boughtBytes, refundBytes, refundableUntil: until, amountCents: refundCents };
  if (now.getTime() > until.getTime()) {
    const refusal = `${label} was completed on ${dateOf(order.completedAt)}, more than 7 days ago: its refund window closed on ${dateOf(until)}`;
    return { ...decided, refusal: new DomainError('CONFLICT', refusal) };
  }
  if (refundCents <= 0) {
    const refusal =
      refundBytes === 0
        ? `Nothing of ${label} is unused: the plan has no traffic left`
        : `The unused part of ${label} is worth less than a cent`;
    return { ...decided, refusal: new DomainError('CONFLICT', refusal) };
  }
  return { ...decided, refusal: null };
}

/**
 * Gathers what a refund of the order depends on under the locks of the purchase and settling order
 * (the order, then the account, then the plan), and decides. Answers the decision with the order.
 */
async function lockAndDecide(
  tx: Transaction,
  props: { orderLabel: string; actor: StaffActor; now: Date },
): Promise<RefundDecision> {
  const number = parseOrderNumberLabel(props.orderLabel);
  const found = number === null ? null : await getOrderByNumberForStaff(tx, { number });
  const order = found ? await lockOrder(tx, { orderId: found.id }) : null;
  if (!order) {
    throw new DomainError('NOT_FOUND', `No order ${props.orderLabel}`);
  }
  const user = await lockCustomer(tx, order.userId, props.actor);
  const poolType = order.details.poolType;
  const plan =
    order.kind === 'purchase' && typeof poolType === 'string'
      ? await lockPlanForPool(tx, { userId: user.id, poolType: poolType as PlanRow['poolType'] })
      : null;
  return decideRefund({ order, balanceCents: user.balanceCents, plan, now: props.now });
}

function presentDecision(decision: RefundDecision, supportLeftCents: number): RefundPreview {
  const { order, plan, refundBytes, amountCents, balanceCents } = decision;
  const sign = order.kind === 'purchase' ? 1 : -1;
  const isPossible = decision.refusal === null;
  return {
    orderId: orderNumberLabel(order.number),
    kind: order.kind,
    amount: centsToDollars(amountCents),
    boughtBytes: decision.boughtBytes,
    refundBytes,
    planId: plan?.id ?? null,
    planTotalBytes: plan?.trafficTotalBytes ?? null,
    planTotalAfterBytes: plan && refundBytes !== null ? plan.trafficTotalBytes - refundBytes : null,
    planUsedBytes: plan?.trafficUsedBytes ?? null,
    balance: centsToDollars(balanceCents),
    balanceAfter: centsToDollars(isPossible ? balanceCents + sign * amountCents : balanceCents),
    refundableUntil: decision.refundableUntil?.toISOString() ?? null,
    needsAdmin: amountCents > supportLeftCents,
    refusal: decision.refusal ? { code: decision.refusal.code, message: decision.refusal.message } : null,
  };
}

/** Exactly what refunding the order would move now (nothing is written), or why it cannot be made. */
export async function previewRefund(
  ctx: ServiceContext,
  props: { orderLabel: string; actor: StaffActor; now?: Date },
): Promise<RefundPreview & { userId: string }> {
  const { decision, supportLeftCents } = await ctx.db.transaction(async (tx) => {
    const decided = await lockAndDecide(tx, { ...props, now: props.now ?? new Date() });
    const allowance = hasRole(props.actor.role, 'admin')
      ? { leftCents: SUPPORT_BALANCE_LIMIT_CENTS }
      : await getSupportAllowance(tx, { actor: props.actor, customerId: decided.order.userId });
    return { decision: decided, supportLeftCents: allowance.leftCents };
  });
  return { ...presentDecision(decision, supportLeftCents), userId: decision.order.userId };
}

/**
 * Refunds an order once (docs/money.md, "Refunds"). A purchase within 7 days of its completion: its unused
 * bytes come off the plan (the gateway sees the smaller total within a second, by `updated_at`) and
 * their share of the price is credited back. A top-up whose money was returned outside the product:
 * what it credited is taken off the balance, refused when the balance no longer holds it. One
 * transaction: the ledger's 'refund' row (a unique index allows one per order), the order's
 * refundedAt, the plan and the audit entry with before and after. Support may move at most
 * SUPPORT_BALANCE_LIMIT_CENTS in 24 hours, refunds, adjustments and approvals together; beyond it an admin.
 */
export async function refundOrder(
  ctx: ServiceContext,
  props: { orderLabel: string; reason: string; actor: StaffActor; now?: Date },
): Promise<RefundPreview & { userId: string }> {
  const now = props.now ?? new Date();
  return ctx.db.transaction(async (tx) => {
    const decision = await lockAndDecide(tx, { ...props, now });
    if (decision.refusal) {
      throw decision.refusal;
    }
    const { order, plan, amountCents } = decision;
    await checkSupportAllowance(tx, { actor: props.actor, customerId: order.userId, amountCents });
    const refundBytes = decision.refundBytes ?? 0;
    const changedPlan =
      plan && refundBytes > 0 ? await takePlanTraffic(tx, { planId: plan.id, bytes: refundBytes }) : null;
    const entry = await insertLedgerEntry(tx, {
      userId: order.userId,
      kind: 'refund',
      amountCents: order.kind === 'purchase' ? amountCents : -amountCents,
      orderId: order.id,
      reason: props.reason,
    });
    await updateOrder(tx, { orderId: order.id, set: { refundedCents: amountCents, refundedAt: now } });
    const label = orderNumberLabel(order.number);
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'order.refund',
      targetType: 'user',
      targetId: order.userId,
      // The order only after: values the same on both sides read as context, and this is the news.
      before: {
        balanceCents: decision.balanceCents,
        ...(plan ? { planTotalBytes: plan.trafficTotalBytes } : {}),
      },
      after: {
        order: label,
        balanceCents: entry.balanceAfterCents,
        amountCents: entry.amountCents,
        ...(changedPlan ? { planTotalBytes: changedPlan.trafficTotalBytes, refundedBytes: refundBytes } : {}),
        orderId: order.id,
        ledgerEntryId: entry.id,
        ...(plan ? { planId: plan.id } : {}),
      },
      reason: props.reason,
    });
    await recordActivity(tx, {
      userId: order.userId,
      kind: 'support_refund',
      details: {
        orderId: label,
        orderKind: order.kind === 'topup' ? 'topup' : 'purchase',
        amountCents,
        refundedBytes: changedPlan ? refundBytes : null,
      },
    });
    return { ...presentDecision(decision, SUPPORT_BALANCE_LIMIT_CENTS), userId: order.userId };
  });
}
