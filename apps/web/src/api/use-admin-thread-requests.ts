import type { ApproveThreadRequest, DeclineThreadRequest } from '@bytegate/contracts/thread-requests';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminThreadRequestsApi, type ThreadRequestFilter } from './admin-thread-requests-client.ts';
import { queryKeys } from './query-keys.ts';

// The console's queue of thread requests: read again every half minute while open (customers keep
// asking), and after a decision together with the audit log and the customer's page, which it changed.

const QUEUE_REFRESH_MS = 30_000;

export function useThreadRequestQueue(filter: ThreadRequestFilter) {
  return useQuery({
    queryKey: queryKeys.admin.threadRequests(filter),
    queryFn: () => adminThreadRequestsApi.list(filter),
    placeholderData: keepPreviousData,
    refetchInterval: QUEUE_REFRESH_MS,
  });
}

/** After a decision: the queue, the audit log and the customer's page are read again. */
function useSettleDecision() {
  const queryClient = useQueryClient();
  return (userId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.allThreadRequests }),
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.allAudit }),
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.customer(userId) }),
    ]);
}

/** Who a decision is about: the request, and its customer (whose page it changes). */
interface DecisionTarget {
  requestId: string;
  userId: string;
}

/** Approves a request. Settled on failure too: a decision whose mail failed (503) still stands. */
export function useApproveThreadRequest() {
  const settle = useSettleDecision();
  return useMutation({
    mutationFn: ({ requestId, userId: _userId, ...body }: DecisionTarget & ApproveThreadRequest) =>
      adminThreadRequestsApi.approve(requestId, body),
    onSettled: (_answer, _error, { userId }) => settle(userId),
  });
}

/** Declines a request with the message the customer reads. */
export function useDeclineThreadRequest() {
  const settle = useSettleDecision();
  return useMutation({
    mutationFn: ({ requestId, userId: _userId, ...body }: DecisionTarget & DeclineThreadRequest) =>
      adminThreadRequestsApi.decline(requestId, body),
    onSettled: (_answer, _error, { userId }) => settle(userId),
  });
}
