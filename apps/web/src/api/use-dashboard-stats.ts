import type { DashboardStats } from '@bytegate/contracts/dashboard';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

const zeros: DashboardStats = {
  activePlans: 0,
  totalAvailableGb: 0,
  errorRate: 0,
  totalRequests: 0,
  totalErrors: 0,
};

/** The overview metrics; on any failure the cards show zeros silently (SPEC section 8). */
export function useDashboardStats() {
  return useQuery({
    queryKey: queryKeys.dashboardStats,
    queryFn: async () => {
      try {
        // Whatever the answer lacks shows as zero too.
        const data = await api.dashboard.getStats();
        return { ...zeros, ...data.metrics };
      } catch {
        return zeros;
      }
    },
    // Read again whenever the overview is shown, and every 30 s while it stays open: usage moves.
    staleTime: 0,
    refetchInterval: 30_000,
  });
}
