import {
  type AdminSource,
  PROBE_FAILURES_TO_HOLD_DOWN,
  type SourceFigures,
  type SupplyMoney,
  type SupplyRangeDays,
} from '@bytegate/contracts/admin-supply';
import { BYTES_PER_GB, PRICE_PER_GB_CENTS } from '@bytegate/contracts/constants';
import type { SourceProbeRow, SourceRow } from '@bytegate/db/queries';
import { maskEndpointUrl } from './source-input.ts';

// The Supply page's arithmetic, pure: which UTC days a range covers, and what a source's bytes earned and
// cost. Money is whole cents rounded half up from the exact amount (bytes × cents per GB / 1024³ in
// integers), so a figure does not drift by a cent with floating point at the .5 boundary. The cost is
// the one the usage flush kept with the bytes (bytes × the cost per GB in force then, `costByteCents`),
// so a later change of a source's cost per GB never re-prices the days before it.

const DAY_MS = 24 * 60 * 60 * 1000;
const GB = BigInt(BYTES_PER_GB);

/** The last `days` UTC days, today included: [from, to) with `to` the start of tomorrow. */
export interface SupplyWindow {
  days: number;
  from: Date;
  to: Date;
}

export function supplyWindow(days: number, now = new Date()): SupplyWindow {
  const to = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  return { days, from: new Date(to.getTime() - days * DAY_MS), to };
}

/** A UTC day as the page and the CSV write it: YYYY-MM-DD. */
export const isoDay = (day: Date) => day.toISOString().slice(0, 10);

/** Every day of the window, oldest first. */
export function windowDays(window: SupplyWindow): string[] {
  return Array.from({ length: window.days }, (_, i) => isoDay(new Date(window.from.getTime() + i * DAY_MS)));
}

/** The window's first and last day (both included), as the answers name it. */
export function rangeOf(window: SupplyWindow): SupplyRangeDays {
  return { days: window.days, from: isoDay(window.from), to: isoDay(new Date(window.to.getTime() - DAY_MS)) };
}

/** numerator / denominator in whole units, half away from zero (a positive denominator). */
export function divideRounded(numerator: bigint, denominator: bigint): number {
  const size = numerator < 0n ? -numerator : numerator;
  const whole = size / denominator + (2n * (size % denominator) >= denominator ? 1n : 0n);
  return Number(numerator < 0n ? -whole : whole);
}

/** `bytes` at `centsPerGb` cents a GB (1024³ bytes), in whole cents, half up; exact for any safe integers. */
export function centsForBytes(bytes: number, centsPerGb: number): number {
  return divideRounded(BigInt(bytes) * BigInt(centsPerGb), GB);
}

/** A cost kept as bytes × cents per GB (source_usage_daily.cost_byte_cents), in whole cents, half up. */
export function centsForByteCents(byteCents: bigint): number {
  return divideRounded(byteCents, GB);
}

/** What a source's usage rows add up to. */
export interface UsageSums {
  carriedBytes: number;
  billedBytes: number;
  /** The carried bytes' cost, exact: Σ bytes × the cost per GB (cents) in force when they were stored. */
  costByteCents: bigint;
  connects: number;
  failures: number;
  connectMsTotal: number;
}

export function sumUsage(rows: readonly UsageSums[]): UsageSums {
  const sums: UsageSums = {
    carriedBytes: 0,
    billedBytes: 0,
    costByteCents: 0n,
    connects: 0,
    failures: 0,
    connectMsTotal: 0,
  };
  for (const row of rows) {
    sums.carriedBytes += row.carriedBytes;
    sums.billedBytes += row.billedBytes;
    sums.costByteCents += row.costByteCents;
    sums.connects += row.connects;
    sums.failures += row.failures;
    sums.connectMsTotal += row.connectMsTotal;
  }
  return sums;
}

/**
 * A source's figures: revenue is the billed GB at its pool's price, cost the carried GB at the cost per
 * GB in force when each byte was stored (rounded once, over the whole range), margin the one minus the
 * other.
 */
export function figuresOf(sums: UsageSums, source: Pick<SourceRow, 'poolType'>): SourceFigures {
  const revenueCents = centsForBytes(sums.billedBytes, PRICE_PER_GB_CENTS[source.poolType]);
  const costCents = centsForByteCents(sums.costByteCents);
  const dials = sums.connects + sums.failures;
  return {
    carriedBytes: sums.carriedBytes,
    billedBytes: sums.billedBytes,
    revenueCents,
    costCents,
    marginCents: revenueCents - costCents,
    connects: sums.connects,
    failures: sums.failures,
    successRate: dials > 0 ? sums.connects / dials : null,
    meanConnectMs: sums.connects > 0 ? Math.round(sums.connectMsTotal / sums.connects) : null,
  };
}

/** The money of several sources together: the sums of what each shows. */
export function addMoney(figures: readonly SupplyMoney[]): SupplyMoney {
  const total: SupplyMoney = {
    carriedBytes: 0,
    billedBytes: 0,
    revenueCents: 0,
    costCents: 0,
    marginCents: 0,
  };
  for (const figure of figures) {
    total.carriedBytes += figure.carriedBytes;
    total.billedBytes += figure.billedBytes;
    total.revenueCents += figure.revenueCents;
    total.costCents += figure.costCents;
    total.marginCents += figure.marginCents;
  }
  return total;
}

/** A network's last probe as staff see it. */
export function presentProbe(probe: SourceProbeRow): NonNullable<AdminSource['lastProbe']> {
  return {
    checkedAt: probe.checkedAt.toISOString(),
    isOk: probe.isOk,
    connectMs: probe.connectMs,
    error: probe.error,
    exitIp: probe.lastProbeExitIp,
    consecutiveFailures: probe.consecutiveFailures,
    isHeldDown: probe.consecutiveFailures >= PROBE_FAILURES_TO_HOLD_DOWN && probe.failingSince !== null,
  };
}

/** A source as staff see it: its endpoint with the password masked, no templates; its last probe. */
export function presentSource(row: SourceRow, probe?: SourceProbeRow): AdminSource {
  return {
    id: row.id,
    name: row.name,
    pool: row.poolType,
    kind: row.kind,
    grammar: row.grammar,
    url: maskEndpointUrl(row.endpointUrl),
    state: row.state,
    weight: row.weight,
    costPerGbCents: row.costPerGbCents,
    alarm: row.alarm,
    alarmAt: row.alarmAt?.toISOString() ?? null,
    lastProbe: probe ? presentProbe(probe) : null,
  };
}
