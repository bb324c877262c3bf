import type { PoolType } from '@bytegate/contracts/pools';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, type GeoList, type SaveProxySettingsRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/** A pool's saved settings; null when none are saved (404), so the form shows the defaults. */
export function useProxySettings(poolType: PoolType, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.proxySettings(poolType),
    enabled,
    queryFn: async () => {
      try {
        return await api.proxySettings.get(poolType);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          return null;
        }
        throw error;
      }
    },
  });
}

export type { GeoList };

export interface GeoFilterFields {
  countries?: string[];
  states?: string[];
  cities?: string[];
  zipcodes?: string[];
  asns?: string[];
}

/** One option list of the pool's live inventory, narrowed by the other fields (refetched as they change). */
export function useGeoOptions(list: GeoList, poolType: PoolType, filter: GeoFilterFields, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.geoOptions(list, poolType, filter),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    queryFn: () => api.proxySettings.listGeoOptions(list, { pool_type: poolType, ...filter }),
  });
}

export function useSaveProxySettings(poolType: PoolType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: Omit<SaveProxySettingsRequest, 'pool_type'>) =>
      api.proxySettings.save({ ...settings, pool_type: poolType }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.proxySettings(poolType), saved),
  });
}
