import { REFUND_WINDOW_MS } from '@bytegate/contracts/admin';
import { BYTES_PER_GB } from '@bytegate/contracts/constants';

// The arithmetic of refunds (docs/money.md, "Refunds"), apart from the locked transaction that applies it.

/** The bytes a purchase order bought, from what purchase-plan.ts stored with it; null if it says none. */
export function boughtBytesOf(details: Record<string, unknown>): number | null {
  const quantityGb = details.quantityGb;
  return typeof quantityGb === 'number' && Number.isSafeInteger(quantityGb) && quantityGb > 0
    ? quantityGb * BYTES_PER_GB
    : null;
}

/**
 * A purchase's unused part: the bytes it bought that the plan still has left (the plan's other
 * purchases are counted as used first), and their share of what it cost, rounded down to the cent.
 * Exact: the product of cents and bytes can pass 2^53, so it is taken in BigInt.
 */
export function purchaseRefund(props: {
  amountCents: number;
  boughtBytes: number;
  planTotalBytes: number;
  planUsedBytes: number;
}): { refundBytes: number; refundCents: number } {
  const leftBytes = Math.max(0, props.planTotalBytes - props.planUsedBytes);
  const refundBytes = Math.min(props.boughtBytes, leftBytes);
  const refundCents = Number((BigInt(props.amountCents) * BigInt(refundBytes)) / BigInt(props.boughtBytes));
  return { refundBytes, refundCents };
}

/** When a purchase completed at `completedAt` stops being refundable. */
export function refundableUntil(completedAt: Date): Date {
  return new Date(completedAt.getTime() + REFUND_WINDOW_MS);
}
