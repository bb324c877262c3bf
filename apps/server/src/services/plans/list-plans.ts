import { listActivePlans, type PlanRow } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';

/** The user's active plans, one per pool at most. */
export async function listPlans(ctx: ServiceContext, props: { userId: string }): Promise<PlanRow[]> {
  return listActivePlans(ctx.db, { userId: props.userId });
}
