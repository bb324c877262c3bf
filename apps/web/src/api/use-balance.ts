import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function useBalance() {
  return useQuery({
    queryKey: queryKeys.balance,
    queryFn: () => api.account.getBalance(),
  });
}
