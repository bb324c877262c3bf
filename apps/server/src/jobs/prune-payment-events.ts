import { deletePaymentEventsBefore } from '@bytegate/db/queries';
import type { ServiceContext } from '../services/context.ts';

/**
 * Webhook events are the audit trail of a payment while it settles and for disputes after; 90 days
 * covers both. Anyone can post to a webhook URL, so without a limit the table only grows.
 */
export const KEEP_PAYMENT_EVENTS_MS = 90 * 24 * 60 * 60 * 1000;

/** Deletes webhook events older than 90 days, keeping those of top-ups not settled yet. */
export async function prunePaymentEvents(ctx: ServiceContext, now = new Date()): Promise<number> {
  return deletePaymentEventsBefore(ctx.db, { before: new Date(now.getTime() - KEEP_PAYMENT_EVENTS_MS) });
}
