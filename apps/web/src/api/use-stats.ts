import type { StatsLive } from '@bytegate/contracts/stats';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryKeys } from './query-keys.ts';
import { statsApi } from './stats-client.ts';

/** The credentials a view can narrow to (each plan's own login and its proxy users). */
export function useStatsCredentials() {
  return useQuery({
    queryKey: queryKeys.statsCredentials,
    queryFn: async () => (await statsApi.credentials()).credentials,
  });
}

/** A view's series and totals; the last answer stays on screen while the next one loads. */
export function useStatsSeries(query: URLSearchParams | null) {
  return useQuery({
    queryKey: queryKeys.stats('series', query?.toString() ?? ''),
    queryFn: () => statsApi.series(query as URLSearchParams),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export function useStatsErrors(query: URLSearchParams | null) {
  return useQuery({
    queryKey: queryKeys.stats('errors', query?.toString() ?? ''),
    queryFn: () => statsApi.errors(query as URLSearchParams),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

/** A view's target hosts, a page of 50 at a time, optionally those matching a search. */
export function useStatsHosts(query: URLSearchParams | null, search: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.stats('hosts', `${query?.toString() ?? ''}|${search}`),
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams(query ?? undefined);
      params.delete('resolution');
      if (search) {
        params.set('search', search);
      }
      if (pageParam) {
        params.set('cursor', pageParam);
      }
      return statsApi.hosts(params);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * The live view: Server-Sent Events from /api/stats/live (every 2 s), reconnecting by itself. Answers
 * the latest reading, and whether the stream is connected.
 */
export function useLiveStats(): { live: StatsLive | null; isConnected: boolean } {
  const [live, setLive] = useState<StatsLive | null>(null);
  const [isConnected, setConnected] = useState(false);
  useEffect(() => {
    const source = new EventSource('/api/stats/live');
    source.addEventListener('live', (event) => {
      setLive(JSON.parse((event as MessageEvent<string>).data) as StatsLive);
      setConnected(true);
    });
    source.addEventListener('error', () => setConnected(false));
    return () => source.close();
  }, []);
  return { live, isConnected };
}
