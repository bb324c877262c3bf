import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function useConfig() {
  return useQuery({
    queryKey: queryKeys.config,
    queryFn: () => api.config.get(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
