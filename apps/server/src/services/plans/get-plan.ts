import type { PoolType } from '@bytegate/contracts/pools';
import { getActivePlanForPool, type PlanRow } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { getOwnPlan } from './get-own-plan.ts';

export type GetPlanProps = { userId: string } & ({ planId: string } | { poolType: PoolType });

/** One of the user's plans, by its id or by its pool; NOT_FOUND when there is none. */
export async function getPlan(ctx: ServiceContext, props: GetPlanProps): Promise<PlanRow> {
  if ('planId' in props) {
    return getOwnPlan(ctx.db, { userId: props.userId, planId: props.planId });
  }
  const plan = await getActivePlanForPool(ctx.db, { userId: props.userId, poolType: props.poolType });
  if (!plan) {
    throw new DomainError('NOT_FOUND', 'No plan found');
  }
  return plan;
}
