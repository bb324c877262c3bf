import { allowlistMessages } from '@bytegate/contracts/allowlist';
import { removePlanAllowlistAddress } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { getOwnPlan } from '../plans/get-own-plan.ts';

/** Takes an address off one of the user's plans; NOT_FOUND when it is not listed there. */
export async function removeAllowlistAddress(
  ctx: ServiceContext,
  props: { userId: string; planId: string; address: string },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const plan = await getOwnPlan(tx, { userId: props.userId, planId: props.planId });
    if (!(await removePlanAllowlistAddress(tx, { planId: plan.id, address: props.address }))) {
      throw new DomainError('NOT_FOUND', allowlistMessages.notListed);
    }
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'allowlist_removed',
      details: { poolType: plan.poolType, address: props.address },
    });
  });
}
