import type { PurchasePlanResponse } from '@bytegate/contracts/billing';
import { planPriceCents } from '@bytegate/contracts/billing';
import { BYTES_PER_GB, DEFAULT_THREAD_LIMIT } from '@bytegate/contracts/constants';
import { centsToDollars } from '@bytegate/contracts/money';
import { type PoolType, POOL_NAMES as poolNames } from '@bytegate/contracts/pools';
import {
  addPlanTraffic,
  createOrder,
  createPlan,
  findIdempotentRequest,
  insertLedgerEntry,
  lockPlanForPool,
  lockUserBalance,
  saveIdempotentRequest,
} from '@bytegate/db/queries';
import { requireVerifiedEmail } from '../account-links/require-verified-email.ts';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { notify } from '../notifications/notify.ts';
import { createPlanCredentials } from '../plans/plan-credentials.ts';
import { presentPlan } from '../plans/present-plan.ts';
import { orderNumberLabel, presentOrder } from './present-order.ts';

export interface PurchasePlanProps {
  userId: string;
  poolType: PoolType;
  quantityGb: number;
  label?: string | undefined;
  /**
   * The public API's `Idempotency-Key` and a hash of the request: a retry with the same key answers
   * what the first request got (`isReplay`), without buying again; the key with another request is a
   * CONFLICT.
   */
  idempotency?: { key: string; requestHash: string } | undefined;
  /** An auto-buy's purchase is told as `auto_buy_completed` by the auto-buy, not as `purchase_completed`. */
  isAutoBuy?: boolean;
  /** The API key's name, for a purchase through the public API (the activity feed names it). */
  apiKeyName?: string | undefined;
}

/** The answer, and for the server only: whether it replays an earlier one, and the order's row id. */
export type PurchaseOutcome = PurchasePlanResponse & { isReplay?: boolean; orderRowId?: string };

/**
 * Buys GB of a pool from the balance (once the account's email is verified, where that is required): debits it (ledger row under the user's row lock), creates the
 * pool's plan or adds the traffic to it, and records a completed order, all in one transaction.
 */
export async function purchasePlan(ctx: ServiceContext, props: PurchasePlanProps): Promise<PurchaseOutcome> {
  await requireVerifiedEmail(ctx, { userId: props.userId });
  const priceCents = planPriceCents(props.poolType, props.quantityGb);
  return ctx.db.transaction(async (tx): Promise<PurchaseOutcome> => {
    const balanceCents = await lockUserBalance(tx, { userId: props.userId });
    if (balanceCents === null) {
      throw new DomainError('UNAUTHENTICATED', 'Your account no longer exists');
    }
    // Under the account's row lock: concurrent retries of one key wait here, and the later ones replay.
    const { idempotency } = props;
    if (idempotency) {
      const earlier = await findIdempotentRequest(tx, { userId: props.userId, key: idempotency.key });
      if (earlier) {
        if (earlier.requestHash !== idempotency.requestHash) {
          throw new DomainError('CONFLICT', IDEMPOTENCY_KEY_REUSED);
        }
        return { ...(earlier.response as PurchasePlanResponse), isReplay: true };
      }
    }
    if (balanceCents < priceCents) {
      throw new DomainError('INSUFFICIENT_BALANCE', 'Insufficient balance', {
        required: priceCents / 100,
        current: balanceCents / 100,
      });
    }
    const order = await createOrder(tx, {
      userId: props.userId,
      kind: 'purchase',
      description: `${poolNames[props.poolType]} proxy traffic, ${props.quantityGb} GB`,
      amountCents: priceCents,
      paymentMethod: 'balance',
      status: 'completed',
      completedAt: new Date(),
      details: {
        poolType: props.poolType,
        quantityGb: props.quantityGb,
        pricePerGbCents: priceCents / props.quantityGb,
      },
    });
    const entry = await insertLedgerEntry(tx, {
      userId: props.userId,
      kind: 'purchase',
      amountCents: -priceCents,
      orderId: order.id,
    });
    const bytes = props.quantityGb * BYTES_PER_GB;
    const existing = await lockPlanForPool(tx, { userId: props.userId, poolType: props.poolType });
    const plan = existing
      ? await addPlanTraffic(tx, { planId: existing.id, userId: props.userId, bytes, label: props.label })
      : await createPlan(tx, {
          userId: props.userId,
          poolType: props.poolType,
          label: props.label || `${poolNames[props.poolType]} plan`,
          ...createPlanCredentials(),
          threadLimit: DEFAULT_THREAD_LIMIT[props.poolType],
          trafficTotalBytes: bytes,
        });
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'purchase_completed',
      details: {
        orderId: orderNumberLabel(order.number),
        poolType: plan.poolType,
        quantityGb: props.quantityGb,
        amountCents: priceCents,
        via: props.isAutoBuy ? 'auto_buy' : props.apiKeyName !== undefined ? 'api' : 'dashboard',
        apiKeyName: props.apiKeyName,
      },
    });
    if (!props.isAutoBuy) {
      await notify(tx, {
        userId: props.userId,
        kind: 'purchase_completed',
        data: {
          order_id: orderNumberLabel(order.number),
          plan_id: plan.id,
          pool_type: plan.poolType,
          quantity_gb: props.quantityGb,
          amount_usd: centsToDollars(priceCents),
          balance_usd: centsToDollars(entry.balanceAfterCents),
        },
      });
    }
    const response: PurchasePlanResponse = {
      success: true as const,
      plan: presentPlan(plan),
      order: presentOrder(order, ctx.config.publicUrl),
      balance: entry.balanceAfterCents / 100,
    };
    if (idempotency) {
      await saveIdempotentRequest(tx, {
        userId: props.userId,
        key: idempotency.key,
        requestHash: idempotency.requestHash,
        statusCode: 201,
        response,
      });
    }
    return { ...response, orderRowId: order.id };
  });
}

/** The answer to an `Idempotency-Key` sent again with a different request. */
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was used for a different request: send a new key for a new request.';
