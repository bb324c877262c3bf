import type { OrderRow } from '@bytegate/db/queries';

// Words the checkout dialog reads as success (SPEC section 4); a pending order must never send one.
const SUCCESS_WORDS = new Set(['completed', 'paid', 'confirmed']);
const EXPIRED_WORDS = new Set(['cancel', 'expired']);

/**
 * The status the checkout dialog polls for, in the provider's casing (lower for Cryptomus, upper for
 * Bitcart). It follows our settled order, not the provider's raw word: 'completed' once credited,
 * 'expired' or 'failed' once failed, and while pending the provider's word, except that a provider's
 * "paid" that is not yet final reads 'confirming' so the dialog keeps polling instead of celebrating.
 * An order held for manual review reads 'review': neither a success nor a failure word.
 */
export function clientTopupStatus(order: OrderRow, rawStatus: string, casing: 'lower' | 'upper'): string {
  const raw = rawStatus.toLowerCase();
  let status: string;
  if (order.status === 'completed') {
    status = 'completed';
  } else if (order.status === 'review') {
    status = 'review';
  } else if (order.status === 'failed') {
    status = EXPIRED_WORDS.has(raw) ? 'expired' : 'failed';
  } else {
    status = SUCCESS_WORDS.has(raw) ? 'confirming' : raw;
  }
  return casing === 'upper' ? status.toUpperCase() : status;
}
