import {
  type AdminThreadRequest,
  type AdminThreadRequestsResponse,
  THREAD_REQUEST_USAGE_DAYS,
  THREAD_REQUESTS_PAGE_SIZE,
  type ThreadRequestStatus,
} from '@bytegate/contracts/thread-requests';
import {
  countThreadRequestsByStatus,
  getThreadRequestInFull,
  listThreadRequestsInFull,
  sumPlanThreadUsage,
  type ThreadRequestInFull,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { presentAdminThreadRequest } from './present-admin-thread-request.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The requests with their plans' traffic over the last THREAD_REQUEST_USAGE_DAYS days. */
async function withUsage(ctx: ServiceContext, rows: ThreadRequestInFull[]): Promise<AdminThreadRequest[]> {
  const usage = await sumPlanThreadUsage(ctx.db, {
    planIds: [...new Set(rows.map((row) => row.plan.id))],
    since: new Date(Date.now() - THREAD_REQUEST_USAGE_DAYS * DAY_MS),
  });
  return rows.map((row) => presentAdminThreadRequest(row, usage.get(row.plan.id)));
}

/**
 * One page of the staff queue: every request (pending first, oldest first) or those of one status,
 * with the customer, the plan and its usage, and the count in each status.
 */
export async function listThreadRequestQueue(
  ctx: ServiceContext,
  props: { status?: ThreadRequestStatus | undefined; page: number },
): Promise<AdminThreadRequestsResponse> {
  const [{ rows, total }, counts] = await Promise.all([
    listThreadRequestsInFull(ctx.db, {
      status: props.status,
      limit: THREAD_REQUESTS_PAGE_SIZE,
      offset: (props.page - 1) * THREAD_REQUESTS_PAGE_SIZE,
    }),
    countThreadRequestsByStatus(ctx.db),
  ]);
  return {
    requests: await withUsage(ctx, rows),
    pagination: {
      currentPage: props.page,
      totalPages: Math.max(1, Math.ceil(total / THREAD_REQUESTS_PAGE_SIZE)),
      totalItems: total,
      itemsPerPage: THREAD_REQUESTS_PAGE_SIZE,
    },
    counts,
  };
}

/** One request as the queue shows it, after an action on it. */
export async function getAdminThreadRequest(
  ctx: ServiceContext,
  props: { requestId: string },
): Promise<AdminThreadRequest> {
  const row = await getThreadRequestInFull(ctx.db, props);
  if (!row) {
    throw new DomainError('NOT_FOUND', 'No such thread request');
  }
  const [presented] = await withUsage(ctx, [row]);
  if (!presented) {
    throw new Error('a presented request went missing');
  }
  return presented;
}
