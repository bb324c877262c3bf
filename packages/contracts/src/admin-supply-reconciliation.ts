import { z } from 'zod';
import { reasonField } from './admin.ts';
import { adminSourceSchema, supplyRangeSchema } from './admin-supply.ts';
import { text } from './text.ts';

// Reconciliation (issue 29): what a vendor says one of our sources carried each UTC day, imported from its
// usage export (a CSV), set against what we counted. A day whose figures differ by more than the tolerance
// (SUPPLY_RECONCILE_TOLERANCE_PCT, 2% by default) is flagged, with what the difference costs at the day's
// cost per GB. Staff read it; only admins import, each import audited with the figures it replaced.

/** How large a usage export the console takes in one request. */
export const VENDOR_USAGE_MAX_BYTES = 1024 * 1024;
/** The most days the reconciliation shows at once. */
export const RECONCILIATION_MAX_DAYS = 366;

/**
 * How KB, MB, GB and TB are read: `decimal` (the default) as 1000-based, `binary` as 1024-based (a
 * vendor that writes GB and means GiB). KiB, MiB, GiB and TiB are 1024-based either way.
 */
export const BYTE_UNITS = ['decimal', 'binary'] as const;
export type ByteUnitsName = (typeof BYTE_UNITS)[number];

/** How dates like 03/04/2025 are read: month first or day first (otherwise the file's dates tell). */
export const DATE_ORDERS = ['mdy', 'dmy'] as const;
export type DateOrderName = (typeof DATE_ORDERS)[number];

/**
 * The amounts' decimal mark: `point` (1,234.5) or `comma` (1.234,5). Otherwise a comma-separated file's
 * is the point, and a `;`- or tab-separated file's amounts tell (an amount they cannot settle is refused).
 */
export const DECIMAL_MARKS = ['point', 'comma'] as const;
export type DecimalMarkName = (typeof DECIMAL_MARKS)[number];

const DAYS_MESSAGE = `Days must be a whole number from 1 to ${RECONCILIATION_MAX_DAYS}`;

/** `?days=30` (the default): the last N UTC days, today included. */
export const reconciliationQuerySchema = z.object({
  days: z.coerce
    .number({ error: DAYS_MESSAGE })
    .int(DAYS_MESSAGE)
    .min(1, DAYS_MESSAGE)
    .max(RECONCILIATION_MAX_DAYS, DAYS_MESSAGE)
    .default(30),
});

/**
 * `POST /api/admin/sources/:sourceId/reconciliation` (admins): the export's text, how to read its units,
 * dates and decimals, and why. All or nothing: one bad row and nothing is stored.
 */
export const importVendorUsageRequestSchema = z.object({
  content: text('Content', { isMultiline: true, error: 'Content is required' })
    .min(1, 'The file is empty')
    .max(VENDOR_USAGE_MAX_BYTES, 'The file is over 1 MiB: split it, or use bytegate sources reconcile'),
  units: z.enum(BYTE_UNITS, { error: 'Units must be decimal or binary' }).default('decimal'),
  dateOrder: z.enum(DATE_ORDERS, { error: 'Date order must be mdy or dmy' }).optional(),
  decimalMark: z.enum(DECIMAL_MARKS, { error: 'Decimal mark must be point or comma' }).optional(),
  reason: reasonField,
});
export type ImportVendorUsageRequest = z.input<typeof importVendorUsageRequestSchema>;

/** One UTC day: our count, the vendor's, and how far apart they are. */
export const reconciliationDaySchema = z.object({
  date: z.string(),
  /** What crossed client sockets through the source that day (what we pay the vendor for). */
  carriedBytes: z.number().int(),
  /** What the vendor's export says; null when no export covered the day. */
  vendorBytes: z.number().int().nullable(),
  /** vendorBytes - carriedBytes: positive when the vendor counts more than we do. */
  differenceBytes: z.number().int().nullable(),
  /** The difference as a percentage of our count, two decimals; null without a vendor figure or our count. */
  differencePct: z.number().nullable(),
  /**
   * What the difference costs at the day's cost per GB (the cost of what we carried that day over its
   * bytes; the source's cost now on a day we carried nothing), whole cents, half away from zero.
   */
  differenceCostCents: z.number().int().nullable(),
  /** Over the tolerance (or a vendor figure on a day we carried nothing). */
  isFlagged: z.boolean(),
  /** When the vendor's figure was imported, and by whom (a staff email, or `cli`). */
  importedAt: z.string().nullable(),
  importedBy: z.string().nullable(),
});
export type ReconciliationDay = z.infer<typeof reconciliationDaySchema>;

/** The days with a vendor figure, added up. */
export const reconciliationTotalsSchema = z.object({
  /** Days with a vendor figure, and of those, the flagged ones. */
  days: z.number().int(),
  flaggedDays: z.number().int(),
  carriedBytes: z.number().int(),
  vendorBytes: z.number().int(),
  differenceBytes: z.number().int(),
  differencePct: z.number().nullable(),
  /** The days' differenceCostCents added up. */
  differenceCostCents: z.number().int(),
});
export type ReconciliationTotals = z.infer<typeof reconciliationTotalsSchema>;

/** `GET /api/admin/sources/:sourceId/reconciliation`: every day of the range, oldest first. */
export const reconciliationResponseSchema = z.object({
  source: adminSourceSchema,
  range: supplyRangeSchema,
  /** The tolerance in percent (SUPPLY_RECONCILE_TOLERANCE_PCT): a day differing by more is flagged. */
  tolerancePct: z.number(),
  days: z.array(reconciliationDaySchema),
  totals: reconciliationTotalsSchema,
});
export type ReconciliationResponse = z.infer<typeof reconciliationResponseSchema>;

/** A line of an export that was refused (the file's own line number: lines above the header count). */
export const vendorUsageProblemSchema = z.object({ line: z.number().int(), message: z.string() });
export type VendorUsageProblem = z.infer<typeof vendorUsageProblemSchema>;

/** A refused import: 400 VALIDATION_FAILED, with every problem by line where there are lines to blame. */
export const vendorUsageRefusedSchema = z.object({
  error: z.string(),
  code: z.string(),
  field: z.string().optional(),
  problems: z.array(vendorUsageProblemSchema).optional(),
});

/** What an import stored, and the reconciliation of the days it covered. */
export const importVendorUsageResponseSchema = z.object({
  imported: z.object({
    /** Rows read, rows left out as totals, days stored, and days of those that had a figure before. */
    rows: z.number().int(),
    skipped: z.number().int(),
    days: z.number().int(),
    replaced: z.number().int(),
    from: z.string(),
    to: z.string(),
  }),
  reconciliation: reconciliationResponseSchema,
});
export type ImportVendorUsageResponse = z.infer<typeof importVendorUsageResponseSchema>;
