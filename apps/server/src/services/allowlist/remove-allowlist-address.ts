import { allowlistMessages } from '@bytegate/contracts/allowlist';
import { removePlanAllowlistAddress } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { getOwnPlan } from '../plans/get-own-plan.ts';

/** Takes an address off one of the user's plans; NOT_FOUND when it is not listed there. */
export async function removeAllowlistAddress(
  ctx: ServiceContext,
  props: { userId: string; planId: string; address: string },
): Promise<void> {
  const plan = await getOwnPlan(ctx.db, { userId: props.userId, planId: props.planId });
  if (!(await removePlanAllowlistAddress(ctx.db, { planId: plan.id, address: props.address }))) {
    throw new DomainError('NOT_FOUND', allowlistMessages.notListed);
  }
}
