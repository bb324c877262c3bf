import { type DailyTraffic, lastUtcDays, USAGE_WINDOW_DAYS } from '@bytegate/contracts/dashboard';
import { listActivePlans, sumUsageByDay } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';

/**
 * Traffic per UTC day over the usage window, all the user's active plans together: one entry per
 * day, oldest first, today last, zeros for days without traffic.
 */
export async function getDailyTraffic(
  ctx: ServiceContext,
  props: { userId: string; now?: Date },
): Promise<DailyTraffic[]> {
  const plans = await listActivePlans(ctx.db, { userId: props.userId });
  const days = lastUtcDays(props.now ?? new Date(), USAGE_WINDOW_DAYS);
  const rows = await sumUsageByDay(ctx.db, {
    planIds: plans.map((plan) => plan.id),
    since: new Date(`${days[0]}T00:00:00Z`),
  });
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return days.map((day) => byDay.get(day) ?? { day, bytes: 0, extraBytes: 0, requests: 0, errors: 0 });
}
