import { describe, expect, it } from 'vitest';
import { isOverTolerance, reconcileDay, reconciliationTotals } from './reconciliation-figures.ts';

const GB = 1024 ** 3;
const settings = { toleranceBasisPoints: 200, costPerGbCentsNow: 150 };
const day = (carriedBytes: number, centsPerGb: number, vendorBytes: number | null) => ({
  date: '2025-03-01',
  carriedBytes,
  costByteCents: BigInt(carriedBytes) * BigInt(centsPerGb),
  vendorBytes,
  importedAt: vendorBytes === null ? null : new Date('2025-03-02T10:00:00Z'),
  importedBy: vendorBytes === null ? null : 'cli',
});

describe('isOverTolerance', () => {
  it('flags only what is over the tolerance, exactly at the boundary', () => {
    // 2% of 10,000 bytes is 200 bytes: 200 is within, 201 is over, either way.
    expect(isOverTolerance(200, 10_000, 200)).toBe(false);
    expect(isOverTolerance(201, 10_000, 200)).toBe(true);
    expect(isOverTolerance(-201, 10_000, 200)).toBe(true);
    // 0.5% (50 basis points) of 2,000,000,000,000 bytes: 10,000,000,000 is within, a byte more is over.
    expect(isOverTolerance(10_000_000_000, 2_000_000_000_000, 50)).toBe(false);
    expect(isOverTolerance(10_000_000_001, 2_000_000_000_000, 50)).toBe(true);
    // A tolerance of 0 flags any difference.
    expect(isOverTolerance(1, GB, 0)).toBe(true);
    expect(isOverTolerance(0, GB, 0)).toBe(false);
  });
});

describe('reconcileDay', () => {
  it('sets the vendor’s figure against ours, in bytes, percent and cents at the day’s cost', () => {
    // We carried 10 GB at $1.20; the vendor says 10.5 GB: +5%, 0.5 GB × $1.20 = 60 cents.
    expect(reconcileDay(day(10 * GB, 120, 10.5 * GB), settings)).toEqual({
      date: '2025-03-01',
      carriedBytes: 10 * GB,
      vendorBytes: 10.5 * GB,
      differenceBytes: 0.5 * GB,
      differencePct: 5,
      differenceCostCents: 60,
      isFlagged: true,
      importedAt: '2025-03-02T10:00:00.000Z',
      importedBy: 'cli',
    });
    // An eighth of a GB under (-1.25%): not flagged, and 15 cents fewer.
    expect(reconcileDay(day(10 * GB, 120, 10 * GB - GB / 8), settings)).toMatchObject({
      differenceBytes: -GB / 8,
      differencePct: -1.25,
      differenceCostCents: -15,
      isFlagged: false,
    });
  });

  it('prices the difference at the day’s own mix when the cost changed during the day', () => {
    // 1 GB at $1.20 and 1 GB at $0.80 that day: $1.00 a GB on average; the vendor counts 0.5 GB more.
    const mixed = {
      ...day(2 * GB, 0, 2.5 * GB),
      costByteCents: BigInt(GB) * 120n + BigInt(GB) * 80n,
    };
    expect(reconcileDay(mixed, settings)).toMatchObject({ differenceCostCents: 50, differencePct: 25 });
  });

  it('flags vendor traffic on a day we carried nothing, priced at the cost now; no figure, no flag', () => {
    expect(reconcileDay(day(0, 0, GB), settings)).toMatchObject({
      differenceBytes: GB,
      differencePct: null,
      differenceCostCents: 150,
      isFlagged: true,
    });
    expect(reconcileDay(day(0, 0, 0), settings)).toMatchObject({ differenceBytes: 0, isFlagged: false });
    expect(reconcileDay(day(GB, 120, null), settings)).toMatchObject({
      vendorBytes: null,
      differenceBytes: null,
      differencePct: null,
      differenceCostCents: null,
      isFlagged: false,
      importedAt: null,
    });
  });

  it('rounds the difference’s cost half away from zero', () => {
    // Half a cent either way: a GB at 1 cent, half a GB of difference.
    expect(reconcileDay(day(GB, 1, 1.5 * GB), settings).differenceCostCents).toBe(1);
    expect(reconcileDay(day(GB, 1, 0.5 * GB), settings).differenceCostCents).toBe(-1);
  });
});

describe('reconciliationTotals', () => {
  it('adds up the days with a vendor figure only, and counts the flagged ones', () => {
    const days = [
      reconcileDay(day(10 * GB, 120, 10.5 * GB), settings),
      reconcileDay(day(10 * GB, 120, 10 * GB - GB / 8), settings),
      reconcileDay(day(7 * GB, 120, null), settings),
    ];
    expect(reconciliationTotals(days)).toEqual({
      days: 2,
      flaggedDays: 1,
      carriedBytes: 20 * GB,
      vendorBytes: 20.375 * GB,
      differenceBytes: 0.375 * GB,
      differencePct: 1.88,
      differenceCostCents: 45,
    });
  });
});
