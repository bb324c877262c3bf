import type { Plan } from '@bytegate/contracts/billing';
import { setPlanPassword } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { createPlanCredentials } from './plan-credentials.ts';
import { presentPlan } from './present-plan.ts';

/**
 * A new proxy password for one of the user's plans (its old one leaked, say). The old password stops
 * working at once: the gateway refuses it within a second and closes the connections made with it.
 */
export async function regeneratePlanPassword(
  ctx: ServiceContext,
  props: {
    userId: string;
    planId: string;
    /** Staff's new password: they record their own activity entry, worded for the customer. */
    isByStaff?: boolean;
  },
): Promise<Plan> {
  const { password } = createPlanCredentials();
  const plan = await setPlanPassword(ctx.db, { userId: props.userId, planId: props.planId, password });
  if (!plan) {
    throw new DomainError('NOT_FOUND', 'No plan found');
  }
  if (!props.isByStaff) {
    await recordActivity(ctx.db, {
      userId: props.userId,
      kind: 'proxy_password_regenerated',
      details: { poolType: plan.poolType },
    });
  }
  return presentPlan(plan);
}
