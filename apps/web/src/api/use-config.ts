import type { PublicConfig } from '@bytegate/contracts/auth';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function fetchConfig(): Promise<PublicConfig> {
  return apiRequest<PublicConfig>('GET', '/config', { auth: false });
}

export function useConfig() {
  return useQuery({ queryKey: queryKeys.config, queryFn: fetchConfig, staleTime: Number.POSITIVE_INFINITY });
}
