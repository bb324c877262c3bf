import { type DailyTraffic, lastUtcDays, USAGE_WINDOW_DAYS } from '@bytegate/contracts/dashboard';
import { getActiveUserById, listUserPlansInFull, sumUsageByDay } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';

/**
 * A customer's traffic per UTC day over the usage window, as their own dashboard chart counts it but
 * over every plan they have, inactive ones included (a disabled account's traffic still shows).
 */
export async function getCustomerUsage(
  ctx: ServiceContext,
  props: { userId: string; now?: Date },
): Promise<DailyTraffic[]> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError('NOT_FOUND', 'No such customer');
  }
  const plans = await listUserPlansInFull(ctx.db, { userId: user.id });
  const days = lastUtcDays(props.now ?? new Date(), USAGE_WINDOW_DAYS);
  const rows = await sumUsageByDay(ctx.db, {
    planIds: plans.map((row) => row.plan.id),
    since: new Date(`${days[0]}T00:00:00Z`),
  });
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return days.map((day) => byDay.get(day) ?? { day, bytes: 0, extraBytes: 0, requests: 0, errors: 0 });
}
