import {
  type SourceDaysResponse,
  SUPPLY_CSV_HEADER,
  type SupplyResponse,
} from '@bytegate/contracts/admin-supply';
import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import {
  getSource,
  listSourceProbes,
  listSources,
  listSourceUsage,
  type SourceProbeRow,
  type SourceRow,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { toCsv } from '../export/csv.ts';
import { sourceNotFound } from './sources.ts';
import {
  addMoney,
  figuresOf,
  isoDay,
  presentSource,
  rangeOf,
  type SupplyWindow,
  sumUsage,
  supplyWindow,
  type UsageSums,
  windowDays,
} from './supply-figures.ts';

// The Supply page's reads: every source with its totals over the last 7 or 30 UTC days, one source day
// by day, and the CSV of every source and day. Staff of either role read them (the route checks that).

interface SupplyProps {
  days: number;
  now?: Date | undefined;
}

/** The window's usage rows by source, then by day (YYYY-MM-DD). */
async function usageBySource(ctx: ServiceContext, window: SupplyWindow, sourceId?: string) {
  const usage = await listSourceUsage(ctx.db, { from: window.from, to: window.to });
  const bySource = new Map<string, Map<string, UsageSums>>();
  for (const row of usage) {
    if (sourceId !== undefined && row.sourceId !== sourceId) {
      continue;
    }
    const days = bySource.get(row.sourceId) ?? new Map<string, UsageSums>();
    bySource.set(row.sourceId, days);
    // The gateway writes each day at its UTC midnight; two rows of one day would be summed all the same.
    const date = isoDay(row.day);
    days.set(date, sumUsage([days.get(date) ?? sumUsage([]), row]));
  }
  return bySource;
}

/** Every source's last probe, by source. */
async function probesBySource(ctx: ServiceContext): Promise<Map<string, SourceProbeRow>> {
  return new Map((await listSourceProbes(ctx.db)).map((probe) => [probe.sourceId, probe]));
}

/** A source changed or added in the console, as its answer shows it (with its last probe). */
export async function presentSourceOf(ctx: ServiceContext, row: SourceRow) {
  return presentSource(row, (await probesBySource(ctx)).get(row.id));
}

const totalsOf = (row: SourceRow, days: Map<string, UsageSums> | undefined) =>
  figuresOf(sumUsage([...(days?.values() ?? [])]), row);

/** `GET /api/admin/sources`: every source with its totals over the range, and all of them together. */
export async function listSupply(ctx: ServiceContext, props: SupplyProps): Promise<SupplyResponse> {
  const window = supplyWindow(props.days, props.now);
  const [rows, usage, probes] = await Promise.all([
    listSources(ctx.db),
    usageBySource(ctx, window),
    probesBySource(ctx),
  ]);
  const sources = rows.map((row) => ({
    ...presentSource(row, probes.get(row.id)),
    totals: totalsOf(row, usage.get(row.id)),
  }));
  return { range: rangeOf(window), sources, totals: addMoney(sources.map((source) => source.totals)) };
}

/** `GET /api/admin/sources/:sourceId/days`: one source's every day of the range, zeros included. */
export async function listSourceDays(
  ctx: ServiceContext,
  props: SupplyProps & { sourceId: string },
): Promise<SourceDaysResponse> {
  const row = await getSource(ctx.db, { id: props.sourceId });
  if (!row) {
    throw sourceNotFound();
  }
  const window = supplyWindow(props.days, props.now);
  const [usage, probes] = await Promise.all([usageBySource(ctx, window, row.id), probesBySource(ctx)]);
  const days = usage.get(row.id);
  return {
    range: rangeOf(window),
    source: { ...presentSource(row, probes.get(row.id)), totals: totalsOf(row, days) },
    days: windowDays(window).map((date) => ({
      date,
      ...figuresOf(days?.get(date) ?? sumUsage([]), row),
    })),
  };
}

const GB_DECIMALS = 6;
const RATE_DECIMALS = 4;
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

/**
 * `GET /api/admin/sources.csv`: one row per UTC day and source (by pool, then name), zeros included, so
 * a spreadsheet can pivot it whole: GB to six decimals, dollars to the cent (the page's rounding), the
 * success rate as a fraction (empty without dials) and the mean connect time in ms (empty when none opened).
 */
export async function supplyCsv(
  ctx: ServiceContext,
  props: SupplyProps,
): Promise<{ window: SupplyWindow; csv: string }> {
  const window = supplyWindow(props.days, props.now);
  const [rows, usage] = await Promise.all([listSources(ctx.db), usageBySource(ctx, window)]);
  const lines = windowDays(window).flatMap((date) =>
    rows.map((row) => {
      const figures = figuresOf(usage.get(row.id)?.get(date) ?? sumUsage([]), row);
      return [
        date,
        row.name,
        row.poolType,
        round(figures.carriedBytes / BYTES_PER_GB, GB_DECIMALS),
        round(figures.billedBytes / BYTES_PER_GB, GB_DECIMALS),
        figures.revenueCents / 100,
        figures.costCents / 100,
        figures.marginCents / 100,
        figures.successRate === null ? null : round(figures.successRate, RATE_DECIMALS),
        figures.meanConnectMs,
      ];
    }),
  );
  return { window, csv: toCsv(SUPPLY_CSV_HEADER, lines) };
}
