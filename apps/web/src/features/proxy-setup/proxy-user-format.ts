import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import {
  bytesToGbText,
  type ProxyUser,
  TRAFFIC_CAP_PERIODS,
  type TrafficCapPeriod,
} from '@bytegate/contracts/proxy-users';
import { formatDate } from '../admin/format.ts';

// How Proxy Setup's "Proxy users" tab writes a proxy user: its name, its usage against its cap, its
// limits and its targeting. Pure, so that the list and the detail read the same and the rules are
// unit-tested.

const BYTES_PER_MB = 1024 ** 2;

/** What the tab calls a user: its label, or its login when it has none. */
export const displayName = (user: Pick<ProxyUser, 'label' | 'login'>) => user.label.trim() || user.login;

/** How a cap period reads: in the form's choice, after an amount ("1.5 GB per month"), after usage. */
export const PERIODS: Record<TrafficCapPeriod, { choice: string; per: string; span: string; hint: string }> =
  {
    day: {
      choice: 'Per day',
      per: 'per day',
      span: 'today',
      hint: 'Counts from 00:00 UTC and starts again every day.',
    },
    month: {
      choice: 'Per month',
      per: 'per month',
      span: 'this month',
      hint: 'Counts from the 1st of the month (UTC) and starts again every month.',
    },
    lifetime: {
      choice: 'Lifetime',
      per: 'lifetime',
      span: 'lifetime',
      hint: 'Never starts again: sets that much of the plan’s traffic aside for this user.',
    },
  };
export const PERIOD_CHOICES = TRAFFIC_CAP_PERIODS.map((period) => ({
  value: period,
  label: PERIODS[period].choice,
}));

/** An amount of traffic as a number and a unit: MB below a tenth of a GB, else GB to two decimals. */
function amount(bytes: number): { value: string; unit: 'MB' | 'GB' } {
  if (bytes > 0 && bytes < BYTES_PER_GB / 10) {
    return { value: String(Number((bytes / BYTES_PER_MB).toFixed(1))), unit: 'MB' };
  }
  return { value: String(Number((bytes / BYTES_PER_GB).toFixed(2))), unit: 'GB' };
}

/** Traffic for people: '0 GB', '12.3 MB', '1.25 GB'. */
export function formatTraffic(bytes: number): string {
  const { value, unit } = amount(bytes);
  return `${value} ${unit}`;
}

/** A cap as it was set: up to three decimals of GB, '1.5 GB'. */
export const formatCap = (bytes: number) => `${bytesToGbText(bytes)} GB`;

export type UsageTone = 'normal' | 'near' | 'reached';

export interface UsageSummary {
  /** '0.4 of 1.5 GB this month'; without a cap, '0.4 GB used'. */
  text: string;
  /** Of the cap used, 0 to 100; null without a cap. */
  percent: number | null;
  /** '1.1 GB left', 'Cap reached' or 'No cap'. */
  aside: string;
  tone: UsageTone;
}

/** A user's traffic against its cap in the cap's current period; without one, its lifetime use. */
export function summarizeUsage(user: Pick<ProxyUser, 'traffic_cap' | 'usage'>): UsageSummary {
  const { traffic_cap: cap, usage } = user;
  if (cap === null) {
    return {
      text: `${formatTraffic(usage.lifetime_used_bytes)} used`,
      percent: null,
      aside: 'No cap',
      tone: 'normal',
    };
  }
  const used = amount(usage.period_used_bytes);
  const of =
    used.unit === 'GB'
      ? `${used.value} of ${formatCap(cap.bytes)}`
      : `${used.value} MB of ${formatCap(cap.bytes)}`;
  const percent = cap.bytes > 0 ? Math.min(100, (usage.period_used_bytes / cap.bytes) * 100) : 100;
  const left = usage.cap_left_bytes ?? Math.max(0, cap.bytes - usage.period_used_bytes);
  const tone: UsageTone = left <= 0 ? 'reached' : percent >= 90 ? 'near' : 'normal';
  return {
    text: `${of} ${PERIODS[cap.period].span}`,
    percent,
    aside: tone === 'reached' ? 'Cap reached' : `${formatTraffic(left)} left`,
    tone,
  };
}

/** When a day or month cap starts counting again ('Resets Dec 1, 2026'); null for lifetime or no cap. */
export function describeReset(user: Pick<ProxyUser, 'traffic_cap' | 'usage'>): string | null {
  const period = user.traffic_cap?.period;
  const start = user.usage.period_start;
  if (!start || (period !== 'day' && period !== 'month')) {
    return null;
  }
  const next = new Date(start);
  if (period === 'day') {
    next.setUTCDate(next.getUTCDate() + 1);
  } else {
    next.setUTCMonth(next.getUTCMonth() + 1);
  }
  return `Resets ${formatDate(next.toISOString())}, 00:00 UTC`;
}

/** The cap as a setting: 'No cap', '1.5 GB per month'. */
export function describeCap(user: Pick<ProxyUser, 'traffic_cap'>): string {
  return user.traffic_cap
    ? `${formatCap(user.traffic_cap.bytes)} ${PERIODS[user.traffic_cap.period].per}`
    : 'No cap';
}

/** The thread limit: its own ('5 threads') or the plan's ('Plan’s 500'). */
export function describeThreads(user: Pick<ProxyUser, 'threads'>, planThreads: number): string {
  const count = (threads: number) => `${threads.toLocaleString('en-US')} thread${threads === 1 ? '' : 's'}`;
  return user.threads === null ? `Plan’s ${count(planThreads)}` : count(user.threads);
}

const listed = (values: ReadonlyArray<string | number>, max = 3) =>
  values.length <= max ? values.join(', ') : `${values.slice(0, max).join(', ')} +${values.length - max}`;

/** Whose targeting applies, and a line on what its own is, when it has one. */
export function describeTargeting(user: Pick<ProxyUser, 'targeting'>): {
  title: string;
  detail: string | null;
} {
  const targeting = user.targeting;
  if (targeting === null) {
    return { title: 'Uses the plan’s Proxy Settings', detail: null };
  }
  const parts = [
    targeting.countries.length > 0 ? `Countries ${listed(targeting.countries)}` : 'Any country',
    targeting.states.length > 0 ? `States ${listed(targeting.states)}` : null,
    targeting.cities.length > 0 ? `Cities ${listed(targeting.cities)}` : null,
    targeting.zipcodes.length > 0 ? `ZIP ${listed(targeting.zipcodes)}` : null,
    targeting.asns.length > 0 ? `ASN ${listed(targeting.asns)}` : null,
    targeting.exclude_countries.length > 0 ? `not ${listed(targeting.exclude_countries)}` : null,
    targeting.exclude_asn.length > 0 ? `not ASN ${listed(targeting.exclude_asn)}` : null,
    targeting.anonymous_filter ? 'anonymous filter' : null,
    `rotation ${targeting.rotation_interval} min`,
  ];
  return { title: 'Own targeting', detail: parts.filter((part) => part !== null).join(' · ') };
}
