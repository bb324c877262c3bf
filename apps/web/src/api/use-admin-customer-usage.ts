import type { DashboardTrafficResponse } from '@bytegate/contracts/dashboard';
import { useQuery } from '@tanstack/react-query';
import { defineApiSection } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

const customerUsageApi = defineApiSection((request) => ({
  get: (userId: string) =>
    request<DashboardTrafficResponse>('GET', `/admin/customers/${encodeURIComponent(userId)}/usage`),
}));

/** A customer's traffic per day for the chart on their console page (read again with the page). */
export function useCustomerUsage(userId: string) {
  return useQuery({
    queryKey: [...queryKeys.admin.customer(userId), 'usage'],
    queryFn: async () => (await customerUsageApi.get(userId)).days,
    staleTime: 0,
  });
}
