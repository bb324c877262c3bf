import {
  ERROR_CODE_GUIDE,
  HOSTS_PAGE_SIZE,
  isPolicyRefusal,
  type StatsErrorsResponse,
  type StatsHostsResponse,
  type StatsPoint,
  type StatsSeriesResponse,
  type StatsTotals,
} from '@bytegate/contracts/stats';
import type { Executor } from '@bytegate/db';
import {
  getStatsCounts,
  getStatsErrorCounts,
  getStatsHosts,
  type StatsCountsRow,
} from '@bytegate/db/queries';
import { DomainError } from '../domain-error.ts';
import { type ResolvedScope, stepsOf } from './stats-scope.ts';

const ZERO: Omit<StatsCountsRow, 'at'> = { bytes: 0, extraBytes: 0, requests: 0, errors: 0, refusals: 0 };

/**
 * What a customer reads from counts: requests that met their target, those that failed for the
 * customer's traffic, those our own policy refused; the success rate leaves the last out.
 */
export function totalsOf(counts: Omit<StatsCountsRow, 'at'>): StatsTotals {
  const judged = counts.requests - counts.refusals;
  const succeeded = Math.max(0, counts.requests - counts.errors);
  return {
    bytes: counts.bytes,
    billedBytes: counts.bytes + counts.extraBytes,
    requests: counts.requests,
    succeeded,
    failed: Math.max(0, counts.errors - counts.refusals),
    refusedByPolicy: counts.refusals,
    successRate: judged > 0 ? Math.round((succeeded / judged) * 1000) / 10 : null,
  };
}

/** The series of a view: every hour or day of the range (zeros included) and the range's totals. */
export async function getStatsSeries(db: Executor, scope: ResolvedScope): Promise<StatsSeriesResponse> {
  const rows = await getStatsCounts(db, scope);
  const byAt = new Map(rows.map((row) => [row.at.getTime(), row]));
  const sum = { ...ZERO };
  const points: StatsPoint[] = stepsOf(scope).map((at) => {
    const row = byAt.get(at.getTime()) ?? { ...ZERO, at };
    sum.bytes += row.bytes;
    sum.extraBytes += row.extraBytes;
    sum.requests += row.requests;
    sum.errors += row.errors;
    sum.refusals += row.refusals;
    const { successRate: _, ...point } = totalsOf(row);
    return { at: at.toISOString(), ...point };
  });
  return {
    from: scope.from.toISOString(),
    to: scope.to.toISOString(),
    resolution: scope.resolution,
    totals: totalsOf(sum),
    points,
  };
}

/** A view's refusals and failures by code (most first, each explained) and per point of its series. */
export async function getStatsErrors(db: Executor, scope: ResolvedScope): Promise<StatsErrorsResponse> {
  const rows = await getStatsErrorCounts(db, scope);
  const totals = new Map<string, number>();
  const byAt = new Map<number, Record<string, number>>();
  for (const row of rows) {
    totals.set(row.code, (totals.get(row.code) ?? 0) + row.count);
    const counts = byAt.get(row.at.getTime()) ?? {};
    counts[row.code] = row.count;
    byAt.set(row.at.getTime(), counts);
  }
  return {
    errors: [...totals]
      .sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b))
      .map(([code, count]) => ({
        code,
        count,
        isPolicyRefusal: isPolicyRefusal(code),
        meaning: ERROR_CODE_GUIDE[code]?.meaning ?? 'A refusal of the gateway.',
        action: ERROR_CODE_GUIDE[code]?.action ?? 'See the Troubleshooting guide.',
      })),
    points: stepsOf(scope).map((at) => ({ at: at.toISOString(), counts: byAt.get(at.getTime()) ?? {} })),
  };
}

const encodeCursor = (row: { bytes: number; host: string }) =>
  Buffer.from(JSON.stringify([row.bytes, row.host])).toString('base64url');

function decodeCursor(cursor: string): { bytes: number; host: string } {
  try {
    const [bytes, host] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof bytes === 'number' && Number.isFinite(bytes) && typeof host === 'string') {
      return { bytes, host };
    }
  } catch {
    // Not one of ours: refused below.
  }
  throw new DomainError('VALIDATION_FAILED', 'The cursor is not one this list gave.', { field: 'cursor' });
}

/** A page of a view's target hosts (by UTC day), most bytes first, optionally those matching `search`. */
export async function getStatsHostsPage(
  db: Executor,
  scope: ResolvedScope,
  params: { search?: string | undefined; cursor?: string | undefined; limit?: number },
): Promise<StatsHostsResponse> {
  const limit = params.limit ?? HOSTS_PAGE_SIZE;
  const rows = await getStatsHosts(db, {
    ...scope,
    search: params.search || undefined,
    limit: limit + 1,
    after: params.cursor ? decodeCursor(params.cursor) : undefined,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { hosts: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
