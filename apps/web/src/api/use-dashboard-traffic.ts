import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/** Daily traffic for the overview chart: read whenever the overview shows, and each minute it stays open. */
export function useDashboardTraffic() {
  return useQuery({
    queryKey: queryKeys.dashboardTraffic,
    queryFn: async () => (await api.dashboard.getTraffic()).days,
    staleTime: 0,
    refetchInterval: 60_000,
  });
}
