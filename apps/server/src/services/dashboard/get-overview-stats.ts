import { USAGE_WINDOW_DAYS } from '@bytegate/contracts/dashboard';
import { listActivePlans, sumUsage } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface OverviewStats {
  activePlans: number;
  /** Traffic left over all active plans, in bytes. */
  leftBytes: number;
  /** Over the last USAGE_WINDOW_DAYS. */
  requests: number;
  errors: number;
}

/** The overview's figures: plans and traffic left now, requests and errors over the usage window. */
export async function getOverviewStats(
  ctx: ServiceContext,
  props: { userId: string; now?: Date },
): Promise<OverviewStats> {
  const plans = await listActivePlans(ctx.db, { userId: props.userId });
  const leftBytes = plans.reduce(
    (sum, plan) => sum + Math.max(0, plan.trafficTotalBytes - plan.trafficUsedBytes),
    0,
  );
  const usage = await sumUsage(ctx.db, {
    planIds: plans.map((plan) => plan.id),
    since: new Date((props.now ?? new Date()).getTime() - USAGE_WINDOW_DAYS * DAY_MS),
  });
  return { activePlans: plans.length, leftBytes, requests: usage.requests, errors: usage.errors };
}
