import { ACTIVITY_RETENTION_MONTHS } from '@bytegate/contracts/activity';
import { deleteActivityBefore } from '@bytegate/db/queries';
import type { ServiceContext } from '../services/context.ts';

/** The moment `months` calendar months before `now` (UTC), past which activity is dropped. */
export function activityCutoff(now: Date, months = ACTIVITY_RETENTION_MONTHS): Date {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

/** Customers' activity feeds keep 13 months (docs/api.md, "Account activity"); older entries are dropped. */
export async function pruneActivity(ctx: ServiceContext, now = new Date()): Promise<void> {
  await deleteActivityBefore(ctx.db, { before: activityCutoff(now) });
}
