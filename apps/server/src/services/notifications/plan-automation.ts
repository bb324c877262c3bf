import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import {
  notificationMessages,
  type PlanAutomation,
  type SetAutoBuyRequest,
  type SetLowTrafficAlertRequest,
} from '@bytegate/contracts/notifications';
import { gbToBytes } from '@bytegate/contracts/proxy-users';
import type { Executor } from '@bytegate/db';
import {
  countAutoBuysSince,
  deleteAutoBuyRule,
  deletePlanTrafficAlert,
  getAutoBuyRule,
  getLastAutoBuyRun,
  getOrderById,
  getPlanTrafficAlert,
  type PlanRow,
  upsertAutoBuyRule,
  upsertPlanTrafficAlert,
} from '@bytegate/db/queries';
import { orderNumberLabel } from '../billing/present-order.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { getOwnPlan } from '../plans/get-own-plan.ts';
import { monthStartUtc } from './run-auto-buys.ts';

const toGb = (bytes: number) => Number((bytes / BYTES_PER_GB).toFixed(3));

/** Whether a plan is under an alert's threshold now (as `fireLowTrafficAlerts` reckons it). */
export function isPlanUnderAlert(
  plan: Pick<PlanRow, 'trafficTotalBytes' | 'trafficUsedBytes'>,
  alert: { thresholdBytes: number | null; thresholdPercent: number | null },
): boolean {
  if (alert.thresholdBytes !== null) {
    return plan.trafficTotalBytes - plan.trafficUsedBytes < alert.thresholdBytes;
  }
  return (
    alert.thresholdPercent !== null &&
    plan.trafficTotalBytes > 0 &&
    plan.trafficUsedBytes * 100 >= alert.thresholdPercent * plan.trafficTotalBytes
  );
}

/** A plan's low-traffic alert and auto-buy as the dashboard shows them. */
export async function getPlanAutomation(
  db: Executor,
  params: { userId: string; planId: string; now?: Date },
): Promise<PlanAutomation> {
  const plan = await getOwnPlan(db, params);
  const [alert, rule] = await Promise.all([getPlanTrafficAlert(db, params), getAutoBuyRule(db, params)]);
  let autoBuy: PlanAutomation['autoBuy'] = null;
  if (rule) {
    const [boughtThisMonth, lastRun] = await Promise.all([
      countAutoBuysSince(db, { planId: plan.id, since: monthStartUtc(params.now ?? new Date()) }),
      getLastAutoBuyRun(db, { planId: plan.id }),
    ]);
    const order = lastRun?.orderId ? await getOrderById(db, { orderId: lastRun.orderId }) : null;
    autoBuy = {
      thresholdGb: toGb(rule.thresholdBytes),
      quantityGb: rule.quantityGb,
      maxPerMonth: rule.maxPerMonth,
      isEnabled: rule.isEnabled,
      status: rule.status,
      boughtThisMonth,
      lastRun: lastRun && {
        outcome: lastRun.outcome,
        at: lastRun.createdAt.toISOString(),
        orderId: order ? orderNumberLabel(order.number) : null,
      },
    };
  }
  return {
    subUserId: plan.id,
    lowTraffic: alert && {
      thresholdGb: alert.thresholdBytes === null ? null : toGb(alert.thresholdBytes),
      thresholdPercent: alert.thresholdPercent,
      isTriggered: alert.isTriggered,
    },
    autoBuy,
  };
}

async function getActiveOwnPlan(db: Executor, params: { userId: string; planId: string }): Promise<PlanRow> {
  const plan = await getOwnPlan(db, params);
  if (!plan.isActive) {
    throw new DomainError('CONFLICT', notificationMessages.planInactive);
  }
  return plan;
}

/**
 * Sets a plan's low-traffic alert. A plan already under the new threshold does not fire now (the
 * customer is looking at its traffic): it fires at the next crossing, after a purchase lifts it above.
 */
export async function setLowTrafficAlert(
  ctx: ServiceContext,
  params: { userId: string; planId: string; body: SetLowTrafficAlertRequest },
): Promise<PlanAutomation> {
  const plan = await getActiveOwnPlan(ctx.db, params);
  const thresholdBytes = params.body.thresholdGb == null ? null : gbToBytes(params.body.thresholdGb);
  const thresholdPercent = params.body.thresholdPercent ?? null;
  await upsertPlanTrafficAlert(ctx.db, {
    userId: params.userId,
    planId: plan.id,
    thresholdBytes,
    thresholdPercent,
    isTriggered: isPlanUnderAlert(plan, { thresholdBytes, thresholdPercent }),
  });
  return getPlanAutomation(ctx.db, params);
}

export async function removeLowTrafficAlert(
  ctx: ServiceContext,
  params: { userId: string; planId: string },
): Promise<PlanAutomation> {
  const plan = await getOwnPlan(ctx.db, params);
  await deletePlanTrafficAlert(ctx.db, { userId: params.userId, planId: plan.id });
  return getPlanAutomation(ctx.db, params);
}

/** Sets a plan's auto-buy; it starts armed and acts within a minute if the plan is under already. */
export async function setAutoBuy(
  ctx: ServiceContext,
  params: { userId: string; planId: string; body: SetAutoBuyRequest },
): Promise<PlanAutomation> {
  const plan = await getActiveOwnPlan(ctx.db, params);
  const thresholdBytes = gbToBytes(params.body.thresholdGb);
  if (thresholdBytes === null) {
    throw new DomainError('VALIDATION_FAILED', notificationMessages.autoBuyThresholdFormat);
  }
  await upsertAutoBuyRule(ctx.db, {
    userId: params.userId,
    planId: plan.id,
    thresholdBytes,
    quantityGb: params.body.quantityGb,
    maxPerMonth: params.body.maxPerMonth,
    isEnabled: params.body.isEnabled ?? true,
  });
  return getPlanAutomation(ctx.db, params);
}

export async function removeAutoBuy(
  ctx: ServiceContext,
  params: { userId: string; planId: string },
): Promise<PlanAutomation> {
  const plan = await getOwnPlan(ctx.db, params);
  await deleteAutoBuyRule(ctx.db, { userId: params.userId, planId: plan.id });
  return getPlanAutomation(ctx.db, params);
}
