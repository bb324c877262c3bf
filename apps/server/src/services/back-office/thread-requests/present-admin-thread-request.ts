import { isStaffRole } from '@bytegate/contracts/admin';
import type { AdminThreadRequest } from '@bytegate/contracts/thread-requests';
import type { PlanThreadUsage, ThreadRequestInFull } from '@bytegate/db/queries';
import { presentThreadRequest } from '../../thread-requests/present-thread-request.ts';

const NO_USAGE: PlanThreadUsage = { requests: 0, errors: 0, threadsExhausted: 0 };

/**
 * A request as staff see it in the queue: what the customer asked and why, who they are, the plan as
 * it is now (its limit may have moved since), and its recent traffic. Never the proxy password.
 */
export function presentAdminThreadRequest(
  { request, plan, user }: ThreadRequestInFull,
  usage: PlanThreadUsage | undefined,
): AdminThreadRequest {
  const { subUserId: _planId, poolType: _poolType, ...asked } = presentThreadRequest(request, plan);
  return {
    ...asked,
    decidedByEmail: request.decidedByEmail,
    customer: {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      isStaff: isStaffRole(user.role),
      isDisabled: user.disabledAt !== null,
    },
    plan: {
      id: plan.id,
      poolType: plan.poolType,
      login: plan.login,
      label: plan.label,
      threadLimit: plan.threadLimit,
      isActive: plan.isActive,
      trafficTotalBytes: plan.trafficTotalBytes,
      trafficUsedBytes: plan.trafficUsedBytes,
    },
    usage: usage ?? NO_USAGE,
  };
}
