import type { UsagePeriod } from '@bytegate/contracts/plans';
import { sumErrorsByCode, sumUsage, topHostsByBytes } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { getOwnPlan } from './get-own-plan.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const PERIOD_MS: Record<UsagePeriod, number> = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS };
const TOP_HOSTS = 10;

export interface PlanUsage {
  period: UsagePeriod;
  since: Date;
  /** Bytes carried, bytes billed on top for target filters, requests and refusals. */
  totals: { bytes: number; extraBytes: number; requests: number; errors: number };
  /** Refusals by gateway error code, most frequent first. */
  errorsByCode: { code: string; count: number }[];
  /** The target hosts that carried the most bytes. */
  topHosts: { host: string; bytes: number }[];
}

/** One of the user's plans' traffic over the period that ends now, from the gateway's usage buckets. */
export async function getPlanUsage(
  ctx: ServiceContext,
  props: { userId: string; planId: string; period: UsagePeriod; now?: Date },
): Promise<PlanUsage> {
  const plan = await getOwnPlan(ctx.db, { userId: props.userId, planId: props.planId });
  const since = new Date((props.now ?? new Date()).getTime() - PERIOD_MS[props.period]);
  const totals = await sumUsage(ctx.db, { planIds: [plan.id], since });
  const [errorsByCode, topHosts] = await Promise.all([
    sumErrorsByCode(ctx.db, { planIds: [plan.id], since }),
    topHostsByBytes(ctx.db, { planIds: [plan.id], since, limit: TOP_HOSTS }),
  ]);
  return {
    period: props.period,
    since,
    totals: {
      bytes: totals.bytes,
      extraBytes: totals.extraBytes,
      requests: totals.requests,
      errors: totals.errors,
    },
    errorsByCode,
    topHosts,
  };
}
