import type { PurchasePlanResponse } from '@bytegate/contracts/billing';
import { planPriceCents } from '@bytegate/contracts/billing';
import { BYTES_PER_GB, DEFAULT_THREAD_LIMIT } from '@bytegate/contracts/constants';
import { type PoolType, POOL_NAMES as poolNames } from '@bytegate/contracts/pools';
import {
  addPlanTraffic,
  createOrder,
  createPlan,
  insertLedgerEntry,
  lockPlanForPool,
  lockUserBalance,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { createPlanCredentials } from '../plans/plan-credentials.ts';
import { presentPlan } from '../plans/present-plan.ts';
import { presentOrder } from './present-order.ts';

export interface PurchasePlanProps {
  userId: string;
  poolType: PoolType;
  quantityGb: number;
  label?: string | undefined;
}

/**
 * Buys GB of a pool from the balance: debits it (ledger row under the user's row lock), creates the
 * pool's plan or adds the traffic to it, and records a completed order, all in one transaction.
 */
export async function purchasePlan(
  ctx: ServiceContext,
  props: PurchasePlanProps,
): Promise<PurchasePlanResponse> {
  const priceCents = planPriceCents(props.poolType, props.quantityGb);
  return ctx.db.transaction(async (tx) => {
    const balanceCents = await lockUserBalance(tx, { userId: props.userId });
    if (balanceCents === null) {
      throw new DomainError('UNAUTHENTICATED', 'Your account no longer exists');
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
    return {
      success: true as const,
      plan: presentPlan(plan),
      order: presentOrder(order, ctx.config.publicUrl),
      balance: entry.balanceAfterCents / 100,
    };
  });
}
