import type { AddSourceRequest, ChangeSourceRequest, SupplyRange } from '@bytegate/contracts/admin-supply';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminSupplyApi } from './admin-supply-client.ts';
import { queryKeys } from './query-keys.ts';

// The console's Supply page (issue 29): the sources with their figures (read again every 30 s, as the
// gateway's usage flushes add to today), one source day by day, and an admin's change, after which the
// figures and the audit log are read again.

/** This module's keys, under the console's `admin` keys. */
export const supplyKeys = {
  all: ['admin', 'supply'] as const,
  list: (days: SupplyRange) => ['admin', 'supply', 'list', days] as const,
  days: (sourceId: string, days: SupplyRange) => ['admin', 'supply', 'days', sourceId, days] as const,
};

const SUPPLY_REFRESH_MS = 30_000;

/** Every source with its totals over the last 7 or 30 UTC days. */
export function useSupply(days: SupplyRange) {
  return useQuery({
    queryKey: supplyKeys.list(days),
    queryFn: () => adminSupplyApi.list(days),
    placeholderData: keepPreviousData,
    refetchInterval: SUPPLY_REFRESH_MS,
  });
}

/** One source's every day of the range. */
export function useSourceDays(sourceId: string, days: SupplyRange) {
  return useQuery({
    queryKey: supplyKeys.days(sourceId, days),
    queryFn: () => adminSupplyApi.days(sourceId, days),
  });
}

/** After an addition or a change: the figures and the audit log are read again. */
const settle = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: supplyKeys.all }),
    queryClient.invalidateQueries({ queryKey: queryKeys.admin.allAudit }),
  ]);

/** An admin's new source (a wholesale network, or a pool's own exits), with a reason. */
export function useAddSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddSourceRequest) => adminSupplyApi.add(body),
    onSuccess: () => settle(queryClient),
  });
}

/** An admin's change of weight, state or cost, or the alarm cleared, with a reason. */
export function useChangeSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sourceId, ...body }: ChangeSourceRequest & { sourceId: string }) =>
      adminSupplyApi.change(sourceId, body),
    onSuccess: () => settle(queryClient),
  });
}
