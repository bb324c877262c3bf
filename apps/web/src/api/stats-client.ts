import type {
  StatsCredential,
  StatsErrorsResponse,
  StatsHostsResponse,
  StatsSeriesResponse,
} from '@bytegate/contracts/stats';
import { defineApiSection } from './api-client.ts';

// Statistics (issue 19): a section of its own, loaded only by the dashboard's Statistics.

export const statsApi = defineApiSection((request) => ({
  credentials: () => request<{ credentials: StatsCredential[] }>('GET', '/stats/credentials'),
  series: (query: URLSearchParams) => request<StatsSeriesResponse>('GET', `/stats/series?${query}`),
  errors: (query: URLSearchParams) => request<StatsErrorsResponse>('GET', `/stats/errors?${query}`),
  hosts: (query: URLSearchParams) => request<StatsHostsResponse>('GET', `/stats/hosts?${query}`),
}));

/** Where a view's CSV downloads from: the same request with `format=csv` (the session cookie goes along). */
export function statsCsvUrl(view: 'series' | 'errors' | 'hosts', query: URLSearchParams): string {
  const params = new URLSearchParams(query);
  params.set('format', 'csv');
  return `/api/stats/${view}?${params}`;
}
