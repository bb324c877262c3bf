import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function useAllowlist(planId: string) {
  return useQuery({
    queryKey: queryKeys.allowlist(planId),
    queryFn: () => api.allowlist.list(planId),
  });
}

export function useAddAllowlistAddress(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (address: string) => api.allowlist.add({ subuser_id: planId, address }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.allowlist(planId) }),
  });
}

export function useRemoveAllowlistAddress(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (address: string) => api.allowlist.remove(planId, address),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.allowlist(planId) }),
  });
}
