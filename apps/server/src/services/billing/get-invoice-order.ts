import { getOrderByNumber, type OrderRow } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { parseOrderNumberLabel } from './present-order.ts';

/**
 * The user's completed order behind an invoice link (BG-…). Only a completed order has an invoice; an
 * unknown, another user's or an unfinished one is NOT_FOUND alike.
 */
export async function getInvoiceOrder(
  ctx: ServiceContext,
  props: { userId: string; orderLabel: string },
): Promise<OrderRow> {
  const number = parseOrderNumberLabel(props.orderLabel);
  const order = number === null ? null : await getOrderByNumber(ctx.db, { userId: props.userId, number });
  if (order?.status !== 'completed') {
    throw new DomainError('NOT_FOUND', 'No invoice for this order');
  }
  return order;
}
