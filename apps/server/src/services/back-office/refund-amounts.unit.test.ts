import { describe, expect, it } from 'vitest';
import { boughtBytesOf, purchaseRefund, refundableUntil } from './refund-amounts.ts';

const GB = 1024 ** 3;

describe('purchaseRefund', () => {
  it('refunds all of an untouched purchase', () => {
    expect(
      purchaseRefund({ amountCents: 4_95, boughtBytes: 5 * GB, planTotalBytes: 5 * GB, planUsedBytes: 0 }),
    ).toEqual({ refundBytes: 5 * GB, refundCents: 4_95 });
  });

  it('refunds the share of what is left, rounded down to the cent', () => {
    // 1.5 GB used of 5 GB: 3.5 GB left is 70% of $4.95 = $3.465, so $3.46.
    expect(
      purchaseRefund({
        amountCents: 4_95,
        boughtBytes: 5 * GB,
        planTotalBytes: 5 * GB,
        planUsedBytes: 1.5 * GB,
      }),
    ).toEqual({ refundBytes: 3.5 * GB, refundCents: 3_46 });
    // One byte used: the whole less a fraction of a cent.
    expect(
      purchaseRefund({ amountCents: 4_95, boughtBytes: 5 * GB, planTotalBytes: 5 * GB, planUsedBytes: 1 }),
    ).toEqual({ refundBytes: 5 * GB - 1, refundCents: 4_94 });
  });

  it("counts the plan's other purchases as used first", () => {
    // 10 GB on the plan from two purchases, 4 GB used: this 5 GB purchase is untouched.
    expect(
      purchaseRefund({
        amountCents: 4_95,
        boughtBytes: 5 * GB,
        planTotalBytes: 10 * GB,
        planUsedBytes: 4 * GB,
      }),
    ).toEqual({ refundBytes: 5 * GB, refundCents: 4_95 });
  });

  it('refunds nothing when the plan has nothing left, or is overdrawn', () => {
    for (const planUsedBytes of [5 * GB, 5 * GB + 70_000]) {
      expect(
        purchaseRefund({ amountCents: 4_95, boughtBytes: 5 * GB, planTotalBytes: 5 * GB, planUsedBytes }),
      ).toEqual({ refundBytes: 0, refundCents: 0 });
    }
  });

  it('stays exact where cents times bytes passes 2^53', () => {
    // $9,999,999.99 for 1,000,000 GB with one byte used: floor of the exact product.
    const boughtBytes = 1_000_000 * GB;
    const amountCents = 999_999_999;
    const { refundCents } = purchaseRefund({
      amountCents,
      boughtBytes,
      planTotalBytes: boughtBytes,
      planUsedBytes: 1,
    });
    expect(refundCents).toBe(Number((BigInt(amountCents) * BigInt(boughtBytes - 1)) / BigInt(boughtBytes)));
    expect(refundCents).toBe(999_999_998);
  });
});

describe('boughtBytesOf and refundableUntil', () => {
  it('reads the GB a purchase stored, and nothing else', () => {
    expect(boughtBytesOf({ poolType: 'datacenter', quantityGb: 5 })).toBe(5 * GB);
    expect(boughtBytesOf({})).toBeNull();
    expect(boughtBytesOf({ quantityGb: '5' })).toBeNull();
    expect(boughtBytesOf({ quantityGb: 0 })).toBeNull();
  });

  it('ends the window 7 days after completion', () => {
    expect(refundableUntil(new Date('2025-03-01T10:00:00Z')).toISOString()).toBe('2025-03-08T10:00:00.000Z');
  });
});
