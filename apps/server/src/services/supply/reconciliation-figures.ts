import type {
  ReconciliationDay,
  ReconciliationTotals,
} from '@bytegate/contracts/admin-supply-reconciliation';
import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { divideRounded } from './supply-figures.ts';

// The reconciliation's arithmetic, pure: a day's count against the vendor's, the difference in bytes and
// percent, whether it is over the tolerance (decided in integers: no float decides a flag), and what the
// difference costs at the day's cost per GB.

const GB = BigInt(BYTES_PER_GB);

/** What one UTC day holds: our count and its cost as the usage flush kept them, and the vendor's figure. */
export interface ReconcileDayInput {
  date: string;
  carriedBytes: number;
  /** Σ bytes × the cost per GB (cents) in force when they were stored (source_usage_daily). */
  costByteCents: bigint;
  vendorBytes: number | null;
  importedAt: Date | null;
  importedBy: string | null;
}

export interface ReconcileSettings {
  /** SUPPLY_RECONCILE_TOLERANCE_PCT in hundredths of a percent (2% is 200). */
  toleranceBasisPoints: number;
  /** The source's cost per GB now: prices the difference on a day we carried nothing. */
  costPerGbCentsNow: number;
}

/** `part` as a percentage of `whole`, two decimals (display only: the flag is decided in integers). */
const percentOf = (part: number, whole: number) => Math.round((part / whole) * 10_000) / 100;

/** Whether |difference| is over the tolerance of `ours`: |difference| × 10,000 > basis points × ours. */
export function isOverTolerance(
  differenceBytes: number,
  ours: number,
  toleranceBasisPoints: number,
): boolean {
  const size = BigInt(Math.abs(differenceBytes));
  return size * 10_000n > BigInt(toleranceBasisPoints) * BigInt(ours);
}

/**
 * One day reconciled. Without a vendor figure there is nothing to compare. On a day we carried nothing,
 * any vendor traffic is flagged (no percentage: there is nothing to take one of) and priced at the cost
 * per GB now. Otherwise the difference is priced at the day's own cost per GB: what our bytes cost that
 * day over the bytes (exact, even when the cost changed during the day).
 */
export function reconcileDay(input: ReconcileDayInput, settings: ReconcileSettings): ReconciliationDay {
  const imported = {
    importedAt: input.importedAt?.toISOString() ?? null,
    importedBy: input.importedBy,
  };
  if (input.vendorBytes === null) {
    return {
      date: input.date,
      carriedBytes: input.carriedBytes,
      vendorBytes: null,
      differenceBytes: null,
      differencePct: null,
      differenceCostCents: null,
      isFlagged: false,
      ...imported,
    };
  }
  const difference = input.vendorBytes - input.carriedBytes;
  const ours = input.carriedBytes;
  const differenceCostCents =
    ours > 0
      ? divideRounded(BigInt(difference) * input.costByteCents, BigInt(ours) * GB)
      : divideRounded(BigInt(difference) * BigInt(settings.costPerGbCentsNow), GB);
  return {
    date: input.date,
    carriedBytes: ours,
    vendorBytes: input.vendorBytes,
    differenceBytes: difference,
    differencePct: ours > 0 ? percentOf(difference, ours) : null,
    differenceCostCents,
    isFlagged: ours > 0 ? isOverTolerance(difference, ours, settings.toleranceBasisPoints) : difference > 0,
    ...imported,
  };
}

/** The days with a vendor figure, added up (the cost is the sum of the days' rounded costs, as shown). */
export function reconciliationTotals(days: readonly ReconciliationDay[]): ReconciliationTotals {
  const compared = days.filter((day) => day.vendorBytes !== null);
  const carriedBytes = compared.reduce((sum, day) => sum + day.carriedBytes, 0);
  const vendorBytes = compared.reduce((sum, day) => sum + (day.vendorBytes ?? 0), 0);
  return {
    days: compared.length,
    flaggedDays: compared.filter((day) => day.isFlagged).length,
    carriedBytes,
    vendorBytes,
    differenceBytes: vendorBytes - carriedBytes,
    differencePct: carriedBytes > 0 ? percentOf(vendorBytes - carriedBytes, carriedBytes) : null,
    differenceCostCents: compared.reduce((sum, day) => sum + (day.differenceCostCents ?? 0), 0),
  };
}
