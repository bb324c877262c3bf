import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import type { PoolType } from '@bytegate/contracts/pools';
import { MAX_HOURLY_RANGE_DAYS, type StatsPeriod, type StatsResolution } from '@bytegate/contracts/stats';

/** What the Statistics section shows: a period (or custom dates), a resolution, a pool and a credential. */
export interface StatsView {
  period: StatsPeriod;
  /** For `custom`: UTC dates, `YYYY-MM-DD`, both days included. */
  customFrom: string;
  customTo: string;
  resolution: StatsResolution;
  pool: PoolType | 'all';
  /** `plan:<id>`, `user:<id>`, or `all`. */
  credential: string;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const PERIOD_DAYS: Record<Exclude<StatsPeriod, 'custom'>, number> = {
  '24h': 1,
  '7d': 7,
  '30d': 30,
  '90d': 90,
};

export const PERIOD_CHOICES: ReadonlyArray<{ value: StatsPeriod; label: string }> = [
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 d' },
  { value: '30d', label: '30 d' },
  { value: '90d', label: '90 d' },
  { value: 'custom', label: 'Custom' },
];

/** Hourly up to a week, daily beyond: the resolution a period starts with. */
export function defaultResolution(period: StatsPeriod): StatsResolution {
  return period === '24h' || period === '7d' ? 'hour' : 'day';
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A new view: the last 7 days by the hour, everything, custom dates preset to the last 30 days. */
export function initialView(now = Date.now()): StatsView {
  return {
    period: '7d',
    customFrom: isoDay(now - 29 * DAY_MS),
    customTo: isoDay(now),
    resolution: 'hour',
    pool: 'all',
    credential: 'all',
  };
}

/**
 * The view's range as the API takes it, or why it cannot be asked: a rolling period ends with the
 * current hour (or UTC day); custom dates run from the first day's 00:00 UTC to the end of the last.
 */
export function rangeOf(view: StatsView, now = Date.now()): { from: string; to: string } | { error: string } {
  if (view.period === 'custom') {
    const from = Date.parse(`${view.customFrom}T00:00:00Z`);
    const last = Date.parse(`${view.customTo}T00:00:00Z`);
    if (Number.isNaN(from) || Number.isNaN(last)) {
      return { error: 'Choose both dates.' };
    }
    if (last < from) {
      return { error: 'The end date comes before the start date.' };
    }
    const to = last + DAY_MS;
    if (view.resolution === 'hour' && to - from > MAX_HOURLY_RANGE_DAYS * DAY_MS) {
      return { error: `An hourly view spans at most ${MAX_HOURLY_RANGE_DAYS} days: choose daily.` };
    }
    return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  }
  const step = view.resolution === 'hour' ? HOUR_MS : DAY_MS;
  const to = Math.floor(now / step) * step + step;
  return {
    from: new Date(to - PERIOD_DAYS[view.period] * DAY_MS).toISOString(),
    to: new Date(to).toISOString(),
  };
}

/** The query string of a view's request (without `format`). */
export function queryOf(view: StatsView, range: { from: string; to: string }): URLSearchParams {
  const params = new URLSearchParams({ from: range.from, to: range.to, resolution: view.resolution });
  if (view.pool !== 'all') {
    params.set('pool', view.pool);
  }
  if (view.credential !== 'all') {
    params.set('credential', view.credential);
  }
  return params;
}

const UNITS = [
  { name: 'TB', bytes: 1024 * BYTES_PER_GB },
  { name: 'GB', bytes: BYTES_PER_GB },
  { name: 'MB', bytes: 1024 ** 2 },
  { name: 'KB', bytes: 1024 },
] as const;

/** Bytes in the largest unit that reads as at least 1 (bytes below a KB): '1.25 GB', '512 B'. */
export function formatBytes(bytes: number): string {
  const unit = UNITS.find((candidate) => bytes >= candidate.bytes);
  if (!unit) {
    return `${Math.round(bytes).toLocaleString('en-US')} B`;
  }
  const value = bytes / unit.bytes;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 2 : 1 })} ${unit.name}`;
}

/** Bytes a second as people read throughput: '2.5 MB/s'. */
export const formatRate = (bytesPerSecond: number) => `${formatBytes(bytesPerSecond)}/s`;

export const formatCount = (value: number) => Math.round(value).toLocaleString('en-US');

/** A success rate as the cards say it: '97.4%', or a dash without requests. */
export const formatRate100 = (rate: number | null) =>
  rate === null ? '–' : `${rate.toLocaleString('en-US')}%`;
