import type { Plan, PurchasePlanRequest } from '@bytegate/contracts/billing';
import { PLANS_CACHE_MS } from '@bytegate/contracts/constants';
import type { PoolType } from '@bytegate/contracts/pools';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from './api-client.ts';
import { refreshMe } from './auth-session.ts';
import { queryKeys } from './query-keys.ts';

/** The user's plans, cached for 60 s (SPEC section 9). */
export function usePlans() {
  return useQuery({
    queryKey: queryKeys.plans,
    queryFn: async () => (await api.plans.list()).plans,
    staleTime: PLANS_CACHE_MS,
  });
}

/**
 * The plan of one pool, loaded when Proxy Settings shows it (SPEC section 4: the plan, then the
 * settings), starting from the list's copy; null when the pool has none (404).
 */
export function usePoolPlan(poolType: PoolType, listed: Plan | undefined) {
  return useQuery({
    queryKey: queryKeys.poolPlan(poolType),
    enabled: listed !== undefined,
    ...(listed ? { placeholderData: listed } : {}),
    queryFn: async () => {
      try {
        return await api.plans.getForPool(poolType);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          return null;
        }
        throw error;
      }
    },
  });
}

/** How often an open Usage Statistics card reads the plan again, so traffic moves as it is used. */
const PLAN_REFRESH_MS = 5_000;

/** One plan, kept fresh while shown (GET /api/subusers/get): traffic left in bytes, to the byte. */
export function useLivePlan(plan: Plan) {
  return useQuery({
    queryKey: queryKeys.plan(plan.subUserId),
    queryFn: () => api.plans.get(plan.subUserId),
    initialData: plan,
    initialDataUpdatedAt: 0,
    refetchInterval: PLAN_REFRESH_MS,
  });
}

export function usePurchasePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PurchasePlanRequest) => api.plans.purchase(body),
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

/** A new proxy password for a plan: the old one stops working, and every view of the plan reloads. */
export function useRegeneratePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: Plan) => api.plans.regeneratePassword(plan.subUserId),
    onSuccess: async (updated) => {
      queryClient.setQueryData(queryKeys.plan(updated.subUserId), updated);
      await queryClient.invalidateQueries({ queryKey: queryKeys.plans });
    },
  });
}
