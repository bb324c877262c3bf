import type { AllowlistEntry, AllowlistResponse } from '@bytegate/contracts/allowlist';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function useAllowlist(planId: string) {
  return useQuery({
    queryKey: queryKeys.allowlist(planId),
    queryFn: () =>
      apiRequest<AllowlistResponse>('GET', `/subuser/allowlist?subuser_id=${encodeURIComponent(planId)}`),
  });
}

export function useAddAllowlistAddress(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (address: string) =>
      apiRequest<AllowlistEntry>('POST', '/subuser/allowlist', { body: { subuser_id: planId, address } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.allowlist(planId) }),
  });
}

export function useRemoveAllowlistAddress(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (address: string) =>
      apiRequest<{ success: true }>(
        'DELETE',
        `/subuser/allowlist?subuser_id=${encodeURIComponent(planId)}&address=${encodeURIComponent(address)}`,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.allowlist(planId) }),
  });
}
