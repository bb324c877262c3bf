import type { StatsLive } from '@bytegate/contracts/stats';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { liveRetryDelayMs, parseServerSentEvents } from './live-stream.ts';
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
 * The live view: Server-Sent Events from /api/stats/live (every 2 s), read over fetch so a refusal's
 * message can show: past the account's open streams (429) the message shows and the stream is tried
 * again after half a minute, never in a tight loop; signed out (401), not again. Answers the latest
 * reading, whether the stream is connected, and why it is not (the server's message) if it said.
 */
export function useLiveStats(): { live: StatsLive | null; isConnected: boolean; problem: string | null } {
  const [live, setLive] = useState<StatsLive | null>(null);
  const [isConnected, setConnected] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const open = async () => {
      let status: number | null = null;
      try {
        const response = await fetch('/api/stats/live', {
          headers: { accept: 'text/event-stream' },
          credentials: 'same-origin',
          signal: controller.signal,
        });
        status = response.status;
        if (!response.ok || !response.body) {
          const body = (await response.json().catch(() => null)) as { error?: string } | null;
          setProblem(body?.error ?? 'Live statistics are not available right now.');
          failures += 1;
        } else {
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let text = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) {
              break;
            }
            const parsed = parseServerSentEvents(text + value);
            text = parsed.rest;
            for (const event of parsed.events) {
              if (event.event === 'live') {
                setLive(JSON.parse(event.data) as StatsLive);
                setConnected(true);
                setProblem(null);
                failures = 0;
              }
            }
          }
        }
      } catch {
        if (controller.signal.aborted) {
          return;
        }
        failures += 1;
      }
      setConnected(false);
      const delay = liveRetryDelayMs({ status, failures });
      if (delay !== null && !controller.signal.aborted) {
        retry = setTimeout(() => void open(), delay);
      }
    };
    void open();
    return () => {
      controller.abort();
      clearTimeout(retry);
    };
  }, []);
  return { live, isConnected, problem };
}
