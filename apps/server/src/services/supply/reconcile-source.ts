import type {
  ByteUnitsName,
  DateOrderName,
  DecimalMarkName,
  ImportVendorUsageResponse,
  ReconciliationResponse,
} from '@bytegate/contracts/admin-supply-reconciliation';
import {
  getSource,
  insertAuditEntry,
  listSourceUsage,
  listVendorUsage,
  replaceVendorUsage,
  type SourceRow,
} from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { checkMayChangeInventory } from '../inventory/inventory-access.ts';
import { reconcileDay, reconciliationTotals } from './reconciliation-figures.ts';
import { findSource, sourceNotFound } from './sources.ts';
import {
  isoDay,
  presentSource,
  rangeOf,
  type SupplyWindow,
  sumUsage,
  supplyWindow,
  windowDays,
} from './supply-figures.ts';
import { readVendorUsageCsv } from './vendor-usage-csv.ts';

// Reconciliation: a vendor's usage export imported for one source (admins, audited), and the source's
// days set against it (staff). The command line names a source by its name or id, the console by its id.

const DAY_MS = 24 * 60 * 60 * 1000;

type SourceRef = string | { id: string };

async function sourceOf(ctx: ServiceContext, source: SourceRef): Promise<SourceRow> {
  if (typeof source === 'string') {
    return findSource(ctx, source);
  }
  const row = await getSource(ctx.db, { id: source.id });
  if (!row) {
    throw sourceNotFound();
  }
  return row;
}

/** The window of a file's days: from its first day to its last, both included. */
function windowOf(from: string, to: string): SupplyWindow {
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS);
  return { days: Math.round((end.getTime() - start.getTime()) / DAY_MS), from: start, to: end };
}

/** A source's every day of the window, oldest first: our count, its cost, and the vendor's figure. */
async function reconciliationOf(
  ctx: ServiceContext,
  row: SourceRow,
  window: SupplyWindow,
): Promise<ReconciliationResponse> {
  const [usage, vendor] = await Promise.all([
    listSourceUsage(ctx.db, { from: window.from, to: window.to }),
    listVendorUsage(ctx.db, { sourceId: row.id, from: window.from, to: window.to }),
  ]);
  const ours = new Map<string, ReturnType<typeof sumUsage>>();
  for (const day of usage) {
    if (day.sourceId === row.id) {
      const date = isoDay(day.day);
      ours.set(date, sumUsage([ours.get(date) ?? sumUsage([]), day]));
    }
  }
  const theirs = new Map(vendor.map((day) => [isoDay(day.day), day]));
  const settings = {
    toleranceBasisPoints: ctx.config.supply.reconcileToleranceBasisPoints,
    costPerGbCentsNow: row.costPerGbCents,
  };
  const days = windowDays(window).map((date) => {
    const counted = ours.get(date);
    const figure = theirs.get(date);
    return reconcileDay(
      {
        date,
        carriedBytes: counted?.carriedBytes ?? 0,
        costByteCents: counted?.costByteCents ?? 0n,
        vendorBytes: figure?.vendorBytes ?? null,
        importedAt: figure?.importedAt ?? null,
        importedBy: figure?.importedBy ?? null,
      },
      settings,
    );
  });
  return {
    source: presentSource(row),
    range: rangeOf(window),
    tolerancePct: settings.toleranceBasisPoints / 100,
    days,
    totals: reconciliationTotals(days),
  };
}

/** `GET /api/admin/sources/:sourceId/reconciliation`, `bytegate sources reconciliation`: the last N days. */
export async function getReconciliation(
  ctx: ServiceContext,
  props: { source: SourceRef; days: number; now?: Date | undefined },
): Promise<ReconciliationResponse> {
  const row = await sourceOf(ctx, props.source);
  return reconciliationOf(ctx, row, supplyWindow(props.days, props.now));
}

/**
 * Imports a vendor's usage export for a source (admins): every row read first, and one bad row refuses
 * the file with every problem by line (400 VALIDATION_FAILED with `problems`); then the days go in in one
 * transaction, each replacing the figure it had, with one audit entry holding the figures before and
 * after. Answers what was stored and the reconciliation of the file's days.
 */
export async function importVendorUsage(
  ctx: ServiceContext,
  props: {
    source: SourceRef;
    content: string;
    units: ByteUnitsName;
    dateOrder?: DateOrderName | undefined;
    decimalMark?: DecimalMarkName | undefined;
    reason: string;
    actor: StaffActor;
    now?: Date | undefined;
  },
): Promise<ImportVendorUsageResponse> {
  checkMayChangeInventory(props.actor, 'sources');
  const row = await sourceOf(ctx, props.source);
  const now = props.now ?? new Date();
  const read = readVendorUsageCsv(props.content, {
    units: props.units,
    dateOrder: props.dateOrder,
    decimalMark: props.decimalMark,
    today: isoDay(now),
  });
  if ('problems' in read) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `Nothing was imported: ${read.message}`,
      read.problems.length > 0 ? { problems: read.problems } : undefined,
    );
  }
  const { file } = read;
  const from = file.days[0]?.date;
  const to = file.days.at(-1)?.date;
  if (!from || !to) {
    throw new DomainError('VALIDATION_FAILED', 'Nothing was imported: the file holds no rows of traffic');
  }
  const replaced = await ctx.db.transaction(async (tx) => {
    const before = await replaceVendorUsage(tx, {
      sourceId: row.id,
      days: file.days.map((day) => ({
        day: new Date(`${day.date}T00:00:00Z`),
        vendorBytes: day.vendorBytes,
      })),
      importedBy: props.actor.email,
      at: now,
    });
    if (!before) {
      throw sourceNotFound();
    }
    const previous = new Map(before.map((day) => [isoDay(day.day), day.vendorBytes]));
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'source.reconcile',
      targetType: 'source',
      targetId: row.id,
      before: {
        vendorBytes: Object.fromEntries(file.days.map((day) => [day.date, previous.get(day.date) ?? null])),
      },
      after: {
        name: row.name,
        vendorBytes: Object.fromEntries(file.days.map((day) => [day.date, day.vendorBytes])),
        rows: file.rows,
        skipped: file.skipped,
        columns: file.columns,
        units: props.units,
        ...(props.dateOrder ? { dateOrder: props.dateOrder } : {}),
        ...(props.decimalMark ? { decimalMark: props.decimalMark } : {}),
      },
      reason: props.reason,
    });
    return before.length;
  });
  return {
    imported: { rows: file.rows, skipped: file.skipped, days: file.days.length, replaced, from, to },
    reconciliation: await reconciliationOf(ctx, row, windowOf(from, to)),
  };
}
