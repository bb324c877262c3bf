import type { StatsErrorsResponse, StatsHostsResponse, StatsSeriesResponse } from '@bytegate/contracts/stats';
import { toCsv as csv } from '../export/csv.ts';

// The Statistics' CSV exports, written by the one CSV writer (see export/csv.ts): ISO 8601 dates, bytes
// as integers.

export function seriesCsv(series: StatsSeriesResponse): string {
  return csv(
    ['start', 'bytes', 'billed_bytes', 'requests', 'succeeded', 'failed', 'refused_by_policy'],
    series.points.map((point) => [
      point.at,
      point.bytes,
      point.billedBytes,
      point.requests,
      point.succeeded,
      point.failed,
      point.refusedByPolicy,
    ]),
  );
}

export function errorsCsv(errors: StatsErrorsResponse): string {
  return csv(
    ['code', 'count', 'refused_by_policy', 'meaning', 'what_to_do'],
    errors.errors.map((row) => [row.code, row.count, row.isPolicyRefusal, row.meaning, row.action]),
  );
}

export function hostsCsv(hosts: StatsHostsResponse['hosts']): string {
  return csv(
    ['host', 'bytes', 'requests', 'errors'],
    hosts.map((row) => [row.host, row.bytes, row.requests, row.errors]),
  );
}
