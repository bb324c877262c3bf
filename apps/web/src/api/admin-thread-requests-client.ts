import type {
  AdminThreadRequestResponse,
  AdminThreadRequestsResponse,
  ApproveThreadRequest,
  DeclineThreadRequest,
  ThreadRequestStatus,
} from '@bytegate/contracts/thread-requests';
import { defineApiSection } from './api-client.ts';

// The console's calls about thread requests (issue 15), in the console's chunk like admin-client.ts.

/** The queue as the console asks for it: one status (or every one, pending first) and a page. */
export interface ThreadRequestFilter {
  status: ThreadRequestStatus | null;
  page: number;
}

const requestPath = (requestId: string, action: 'approve' | 'decline') =>
  `/admin/thread-requests/${encodeURIComponent(requestId)}/${action}`;

export const adminThreadRequestsApi = defineApiSection((request) => ({
  list: ({ status, page }: ThreadRequestFilter) =>
    request<AdminThreadRequestsResponse>(
      'GET',
      `/admin/thread-requests?${new URLSearchParams({ ...(status ? { status } : {}), page: String(page) })}`,
    ),
  approve: (requestId: string, body: ApproveThreadRequest) =>
    request<AdminThreadRequestResponse>('POST', requestPath(requestId, 'approve'), { body }),
  decline: (requestId: string, body: DeclineThreadRequest) =>
    request<AdminThreadRequestResponse>('POST', requestPath(requestId, 'decline'), { body }),
}));
