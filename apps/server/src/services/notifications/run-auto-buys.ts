import { planPriceCents } from '@bytegate/contracts/billing';
import { centsToDollars } from '@bytegate/contracts/money';
import {
  countAutoBuysSince,
  getPlanById,
  insertAutoBuyRun,
  listDueAutoBuyPlanIds,
  lockAutoBuyRule,
  lockPlanForPool,
  lockUserBalance,
  rearmAutoBuyRules,
  setAutoBuyStatus,
} from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import { purchasePlan } from '../billing/purchase-plan.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { notify } from './notify.ts';

/** What one plan's auto-buy did in a pass. */
export type AutoBuyAction = 'bought' | 'insufficient_balance' | 'monthly_limit' | 'none';

/** The first instant of the calendar month (UTC) `now` is in: a rule's "times a month" count from it. */
export function monthStartUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * The jobs' pass (every 15 s, so within a minute of a crossing): re-arms the rules of plans back above
 * their threshold, then acts on every plan under its threshold whose rule is armed, waits for the
 * balance, or waits for a new month. Answers what each acting plan did.
 */
export async function runAutoBuys(
  ctx: ServiceContext,
  now: () => Date = () => new Date(),
): Promise<AutoBuyAction[]> {
  await rearmAutoBuyRules(ctx.db);
  const planIds = await listDueAutoBuyPlanIds(ctx.db, { limit: 500 });
  const actions: AutoBuyAction[] = [];
  for (const planId of planIds) {
    actions.push(await runAutoBuy(ctx, planId, now()));
  }
  return actions;
}

/**
 * One plan's auto-buy, in one transaction under its rule's row lock and its plan's: the crossing is
 * checked again under the locks (a usage flush or another pass may have moved it), so a crossing buys
 * at most once however many passes and flushes race, and a purchase lifts the plan in the same commit.
 * A purchase is a normal one (order, ledger row); a short balance is told once and retried quietly
 * each pass until it is covered; the month's limit is told once.
 */
export async function runAutoBuy(ctx: ServiceContext, planId: string, now: Date): Promise<AutoBuyAction> {
  try {
    return await ctx.db.transaction(async (tx): Promise<AutoBuyAction> => {
      const rule = await lockAutoBuyRule(tx, { planId });
      if (!rule?.isEnabled || rule.status === 'bought') {
        return 'none';
      }
      const found = await getPlanById(tx, { userId: rule.userId, planId });
      if (!found) {
        return 'none';
      }
      // The account's row, then the plan's: the order a purchase takes them in, so the two never deadlock.
      const balanceCents = (await lockUserBalance(tx, { userId: rule.userId })) ?? 0;
      const plan = await lockPlanForPool(tx, { userId: rule.userId, poolType: found.poolType });
      if (!plan?.isActive || plan.trafficTotalBytes - plan.trafficUsedBytes >= rule.thresholdBytes) {
        return 'none';
      }
      const priceCents = planPriceCents(plan.poolType, rule.quantityGb);
      const failure = async (reason: 'insufficient_balance' | 'monthly_limit') => {
        // Told once per crossing: a rule already waiting on the balance only changes its state.
        if (rule.status === 'armed') {
          await insertAutoBuyRun(tx, { planId, userId: rule.userId, outcome: reason });
          await notify(tx, {
            userId: rule.userId,
            kind: 'auto_buy_failed',
            data: {
              plan_id: planId,
              pool_type: plan.poolType,
              quantity_gb: rule.quantityGb,
              reason,
              amount_usd: centsToDollars(priceCents),
              balance_usd: centsToDollars(balanceCents),
            },
          });
          await recordActivity(tx, {
            userId: rule.userId,
            kind: 'auto_buy_failed',
            details: {
              poolType: plan.poolType,
              quantityGb: rule.quantityGb,
              reason,
              amountCents: priceCents,
              balanceCents,
            },
          });
        }
        await setAutoBuyStatus(tx, { planId, status: reason });
        return reason;
      };
      const boughtThisMonth = await countAutoBuysSince(tx, { planId, since: monthStartUtc(now) });
      if (boughtThisMonth >= rule.maxPerMonth) {
        return rule.status === 'monthly_limit' ? 'none' : failure('monthly_limit');
      }
      if (balanceCents < priceCents) {
        // Checked before buying, so the quiet retries of a short balance write nothing.
        return rule.status === 'insufficient_balance' ? 'none' : failure('insufficient_balance');
      }
      const purchase = await purchasePlan(
        { ...ctx, db: tx },
        { userId: rule.userId, poolType: plan.poolType, quantityGb: rule.quantityGb, isAutoBuy: true },
      );
      await insertAutoBuyRun(tx, {
        planId,
        userId: rule.userId,
        outcome: 'bought',
        orderId: purchase.orderRowId ?? null,
      });
      await setAutoBuyStatus(tx, { planId, status: 'bought' });
      await notify(tx, {
        userId: rule.userId,
        kind: 'auto_buy_completed',
        data: {
          order_id: purchase.order.orderId,
          plan_id: planId,
          pool_type: plan.poolType,
          quantity_gb: rule.quantityGb,
          amount_usd: centsToDollars(priceCents),
          balance_usd: purchase.balance,
        },
      });
      return 'bought';
    });
  } catch (error) {
    // A purchase the account may not make now (an unverified email): nothing is bought or told; the
    // rule stays as it is and is tried again next pass.
    if (error instanceof DomainError && error.code !== 'INTERNAL_ERROR') {
      ctx.log?.warn({ err: error, planId }, 'auto-buy could not purchase');
      return 'none';
    }
    throw error;
  }
}
