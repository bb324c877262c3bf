import { useInfiniteQuery } from '@tanstack/react-query';
import { activityApi } from './activity-client.ts';
import { queryKeys } from './query-keys.ts';

/**
 * The account's activity, newest first, 20 entries a page: the Dashboard's Recent Activity shows the
 * first few, and the full list ("View all") pages on through the same query. Read again whenever the
 * overview is shown and every 30 s while it stays open: payments settle and staff act in the background.
 */
export function useActivity() {
  return useInfiniteQuery({
    queryKey: queryKeys.activity,
    queryFn: ({ pageParam }) => activityApi.page(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    staleTime: 0,
    refetchInterval: 30_000,
  });
}
