import type { StatsErrorsResponse, StatsHostsResponse, StatsSeriesResponse } from '@bytegate/contracts/stats';

/**
 * The Statistics' CSV exports: UTF-8, one header row, ISO 8601 dates, bytes as integers, fields quoted
 * when they hold a comma, a quote or a line break (RFC 4180), lines ending CRLF.
 */

function field(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(header: string[], rows: Array<Array<string | number | boolean | null>>): string {
  return [header, ...rows]
    .map((row) => row.map(field).join(','))
    .join('\r\n')
    .concat('\r\n');
}

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
