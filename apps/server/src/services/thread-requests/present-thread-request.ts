import type { ThreadRequest } from '@bytegate/contracts/thread-requests';
import type { PlanRow, ThreadRequestRow } from '@bytegate/db/queries';

/** A request as its customer sees it: what they asked, the status and support's answer (never who decided). */
export function presentThreadRequest(
  row: ThreadRequestRow,
  plan: Pick<PlanRow, 'id' | 'poolType'>,
): ThreadRequest {
  return {
    id: row.id,
    subUserId: plan.id,
    poolType: plan.poolType,
    status: row.status,
    currentThreads: row.currentThreads,
    requestedThreads: row.requestedThreads,
    grantedThreads: row.grantedThreads,
    purpose: row.purpose,
    company: row.company,
    website: row.website,
    decisionMessage: row.decisionMessage,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
  };
}
