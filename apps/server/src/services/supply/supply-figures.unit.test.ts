import { describe, expect, it } from 'vitest';
import {
  addMoney,
  centsForByteCents,
  centsForBytes,
  divideRounded,
  figuresOf,
  rangeOf,
  sumUsage,
  supplyWindow,
  windowDays,
} from './supply-figures.ts';

const GB = 1024 ** 3;

describe('centsForBytes', () => {
  it('prices whole and part GB, rounding half up', () => {
    expect(centsForBytes(0, 199)).toBe(0);
    expect(centsForBytes(3 * GB, 199)).toBe(597);
    // 1.5 GB at 99 cents is 148.5 cents: up to 149.
    expect(centsForBytes(1.5 * GB, 99)).toBe(149);
    // Just under the half: down.
    expect(centsForBytes(1.5 * GB - 1024, 99)).toBe(148);
    // 0.5 cent exactly (half a GB at 1 cent): up; a byte less: down.
    expect(centsForBytes(GB / 2, 1)).toBe(1);
    expect(centsForBytes(GB / 2 - 1, 1)).toBe(0);
  });

  it('stays exact where floating point would not (4 PiB at $3.99, a byte short of half a cent)', () => {
    // bytes × 399 is 1673527559 GB-cents and 2^29 - 1 bytes-cents: just under .5. As a float the product
    // (past 2^53) rounds to exactly .5, and Math.round would go up.
    const bytes = 4_503_600_336_470_673;
    expect(Math.round((bytes * 399) / GB)).toBe(1_673_527_560);
    expect(centsForBytes(bytes, 399)).toBe(1_673_527_559);
  });
});

describe('centsForByteCents and divideRounded', () => {
  it('turns a kept cost (bytes × cents per GB) into whole cents, half up, and signed amounts half away from zero', () => {
    expect(centsForByteCents(0n)).toBe(0);
    expect(centsForByteCents(BigInt(GB) * 120n)).toBe(120);
    // Half a GB at 1 cent is half a cent: up; one byte-cent less: down.
    expect(centsForByteCents(BigInt(GB / 2))).toBe(1);
    expect(centsForByteCents(BigInt(GB / 2 - 1))).toBe(0);
    expect(divideRounded(-5n, 2n)).toBe(-3);
    expect(divideRounded(-4n, 3n)).toBe(-1);
    expect(divideRounded(5n, 2n)).toBe(3);
  });
});

/** A usage row as the flush keeps it: bytes carried at `centsPerGb` each. */
const carried = (bytes: number, centsPerGb: number) => BigInt(bytes) * BigInt(centsPerGb);

describe('figuresOf', () => {
  it('prices revenue at the pool, cost as the flush kept it, and reads the dials', () => {
    const sums = sumUsage([
      {
        carriedBytes: GB,
        billedBytes: 2 * GB,
        costByteCents: carried(GB, 120),
        connects: 6,
        failures: 0,
        connectMsTotal: 120,
      },
      {
        carriedBytes: GB / 2,
        billedBytes: GB / 2,
        costByteCents: carried(GB / 2, 120),
        connects: 2,
        failures: 2,
        connectMsTotal: 45,
      },
    ]);
    expect(figuresOf(sums, { poolType: 'residential' })).toEqual({
      carriedBytes: 1.5 * GB,
      billedBytes: 2.5 * GB,
      // 2.5 GB × 199 = 497.5 → 498; 1.5 GB × 120 = 180.
      revenueCents: 498,
      costCents: 180,
      marginCents: 318,
      connects: 8,
      failures: 2,
      successRate: 0.8,
      // 165 ms over 8 opened dials: 20.625 → 21.
      meanConnectMs: 21,
    });
  });

  it('keeps each part of the bytes at the cost it was carried at, rounding once over the whole', () => {
    // 1 GB at $1.20, then the cost changed to $0.95 and half a GB more: 120 + 47.5 = 167.5 cents → 168.
    const sums = sumUsage([
      {
        carriedBytes: GB,
        billedBytes: GB,
        costByteCents: carried(GB, 120),
        connects: 1,
        failures: 0,
        connectMsTotal: 1,
      },
      {
        carriedBytes: GB / 2,
        billedBytes: GB / 2,
        costByteCents: carried(GB / 2, 95),
        connects: 1,
        failures: 0,
        connectMsTotal: 1,
      },
    ]);
    expect(figuresOf(sums, { poolType: 'residential' })).toMatchObject({ costCents: 168, revenueCents: 299 });
  });

  it('has no rate and no connect time without dials, and a negative margin when the source costs more', () => {
    const figures = figuresOf(
      {
        carriedBytes: GB,
        billedBytes: GB,
        costByteCents: carried(GB, 150),
        connects: 0,
        failures: 0,
        connectMsTotal: 0,
      },
      { poolType: 'datacenter' },
    );
    expect(figures).toMatchObject({ revenueCents: 99, costCents: 150, marginCents: -51 });
    expect(figures.successRate).toBeNull();
    expect(figures.meanConnectMs).toBeNull();
    expect(
      figuresOf(
        { carriedBytes: 0, billedBytes: 0, costByteCents: 0n, connects: 0, failures: 3, connectMsTotal: 0 },
        { poolType: 'mobile' },
      ),
    ).toMatchObject({ successRate: 0, meanConnectMs: null });
  });

  it('adds sources up as they are shown', () => {
    const money = (revenueCents: number, costCents: number) => ({
      carriedBytes: 1,
      billedBytes: 2,
      revenueCents,
      costCents,
      marginCents: revenueCents - costCents,
    });
    expect(addMoney([money(149, 60), money(10, 30)])).toEqual({
      carriedBytes: 2,
      billedBytes: 4,
      revenueCents: 159,
      costCents: 90,
      marginCents: 69,
    });
  });
});

describe('the window', () => {
  it('is the last N UTC days, today included', () => {
    const window = supplyWindow(7, new Date('2025-03-05T23:59:59.999Z'));
    expect(window.from.toISOString()).toBe('2025-02-27T00:00:00.000Z');
    expect(window.to.toISOString()).toBe('2025-03-06T00:00:00.000Z');
    expect(rangeOf(window)).toEqual({ days: 7, from: '2025-02-27', to: '2025-03-05' });
    expect(windowDays(window)).toEqual([
      '2025-02-27',
      '2025-02-28',
      '2025-03-01',
      '2025-03-02',
      '2025-03-03',
      '2025-03-04',
      '2025-03-05',
    ]);
    expect(windowDays(supplyWindow(30, new Date('2025-03-06T00:00:00Z')))).toHaveLength(30);
  });
});
