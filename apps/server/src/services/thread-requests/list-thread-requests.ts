import { CUSTOMER_THREAD_REQUESTS_LIMIT, type ThreadRequest } from '@bytegate/contracts/thread-requests';
import { listUserThreadRequests } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { presentThreadRequest } from './present-thread-request.ts';

/** The customer's own thread requests, newest first, each with its status and support's answer. */
export async function listThreadRequests(
  ctx: ServiceContext,
  props: { userId: string },
): Promise<ThreadRequest[]> {
  const rows = await listUserThreadRequests(ctx.db, {
    userId: props.userId,
    limit: CUSTOMER_THREAD_REQUESTS_LIMIT,
  });
  return rows.map(({ request, plan }) => presentThreadRequest(request, plan));
}
