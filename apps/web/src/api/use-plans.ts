import type { Plan, PurchasePlanRequest, PurchasePlanResponse } from '@bytegate/contracts/billing';
import { PLANS_CACHE_MS } from '@bytegate/contracts/constants';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';
import { refreshMe } from './use-auth.ts';

/** The user's plans, cached for 60 s (SPEC section 9). */
export function usePlans() {
  return useQuery({
    queryKey: queryKeys.plans,
    queryFn: async () => (await apiRequest<{ plans: Plan[] }>('GET', '/subuser/plans')).plans,
    staleTime: PLANS_CACHE_MS,
  });
}

export function usePurchasePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PurchasePlanRequest) =>
      apiRequest<PurchasePlanResponse>('POST', '/subuser/create', { body }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.balance }),
        queryClient.invalidateQueries({ queryKey: queryKeys.plans }),
        queryClient.invalidateQueries({ queryKey: queryKeys.allOrders }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboardStats }),
        refreshMe().catch(() => undefined),
      ]);
    },
  });
}
