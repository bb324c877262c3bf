import type { ImportCatalogRequest } from '@bytegate/contracts/admin-catalog';
import type { AddSourceRequest, ChangeSourceRequest, SupplyRange } from '@bytegate/contracts/admin-supply';
import type { ImportVendorUsageRequest } from '@bytegate/contracts/admin-supply-reconciliation';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminSupplyApi } from './admin-supply-client.ts';
import { queryKeys } from './query-keys.ts';

// The console's Supply page (issue 29): the sources with their figures (read again every 30 s, as the
// gateway's usage flushes add to today), one source day by day, an admin's change, after which the
// figures and the audit log are read again, and a source's reconciliation with its vendor's usage.

/** This module's keys, under the console's `admin` keys. */
export const supplyKeys = {
  all: ['admin', 'supply'] as const,
  list: (days: SupplyRange) => ['admin', 'supply', 'list', days] as const,
  days: (sourceId: string, days: SupplyRange) => ['admin', 'supply', 'days', sourceId, days] as const,
  reconciliation: (sourceId: string, days: SupplyRange) =>
    ['admin', 'supply', 'reconciliation', sourceId, days] as const,
  catalog: (sourceId: string) => ['admin', 'supply', 'catalog', sourceId] as const,
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

/** A source's days of the range against its vendor's imported figures. */
export function useReconciliation(sourceId: string | undefined, days: SupplyRange) {
  return useQuery({
    queryKey: supplyKeys.reconciliation(sourceId ?? '', days),
    queryFn: () => adminSupplyApi.reconciliation(sourceId ?? '', days),
    enabled: sourceId !== undefined,
  });
}

/** An admin's import of a vendor's usage export for a source, with a reason. */
export function useImportVendorUsage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sourceId, ...body }: ImportVendorUsageRequest & { sourceId: string }) =>
      adminSupplyApi.importVendorUsage(sourceId, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: supplyKeys.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.allAudit }),
      ]),
  });
}

/** A network's catalog of places, country by country. */
export function useSourceCatalog(sourceId: string) {
  return useQuery({
    queryKey: supplyKeys.catalog(sourceId),
    queryFn: () => adminSupplyApi.catalog(sourceId),
  });
}

/** An admin's import of a network's list of places, after which its catalog and the audit log are read again. */
export function useImportCatalog() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sourceId, ...body }: ImportCatalogRequest & { sourceId: string }) =>
      adminSupplyApi.importCatalog(sourceId, body),
    onSuccess: (_answer, { sourceId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: supplyKeys.catalog(sourceId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.allAudit }),
      ]),
  });
}
