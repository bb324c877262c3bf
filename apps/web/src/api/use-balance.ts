import type { BalanceResponse } from '@bytegate/contracts/account';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function useBalance() {
  return useQuery({
    queryKey: queryKeys.balance,
    queryFn: () => apiRequest<BalanceResponse>('GET', '/account/balance'),
  });
}
