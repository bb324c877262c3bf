import type { CreateThreadRequest, ThreadRequest } from '@bytegate/contracts/thread-requests';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys.ts';
import { threadRequestsApi } from './thread-requests-client.ts';

// The customer's requests for more threads. While one waits for support, the list is read again every
// half minute so the answer shows up on an open page; an approval also reloads the plans, whose
// thread limits it changed.

const WHILE_PENDING_MS = 30_000;

/** The customer's thread requests, newest first. */
export function useThreadRequests() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.threadRequests,
    queryFn: async () => {
      const known = queryClient.getQueryData<ThreadRequest[]>(queryKeys.threadRequests);
      const { requests } = await threadRequestsApi.list();
      const isNewlyApproved = requests.some(
        (request) =>
          request.status === 'approved' && known?.find((old) => old.id === request.id)?.status === 'pending',
      );
      if (isNewlyApproved) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.plans });
      }
      return requests;
    },
    refetchInterval: (query) =>
      query.state.data?.some((request) => request.status === 'pending') ? WHILE_PENDING_MS : false,
  });
}

export function useCreateThreadRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateThreadRequest) => threadRequestsApi.create(body),
    onSuccess: async (created) => {
      queryClient.setQueryData<ThreadRequest[]>(queryKeys.threadRequests, (known) => [
        created,
        ...(known ?? []),
      ]);
      await queryClient.invalidateQueries({ queryKey: queryKeys.threadRequests });
    },
  });
}

export function useCancelThreadRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (requestId: string) => threadRequestsApi.cancel(requestId),
    // A request decided meanwhile refuses the cancel (409): the list is read again either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.threadRequests }),
  });
}
