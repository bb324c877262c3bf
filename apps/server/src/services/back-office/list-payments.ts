import {
  PAYMENT_EVENTS_LIMIT,
  PAYMENTS_PAGE_SIZE,
  type PaymentDetailResponse,
  type PaymentsResponse,
  type paymentsQuerySchema,
} from '@bytegate/contracts/admin-payments';
import {
  getOrderByNumberForStaff,
  getUserEmail,
  listInvoiceEvents,
  listPaymentOrders,
  type OrderRow,
} from '@bytegate/db/queries';
import type { z } from 'zod';
import { parseOrderNumberLabel } from '../billing/present-order.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { presentPayment, presentPaymentEvent } from './present-payments.ts';

/** An order number as people type it: 'BG-100042', 'bg-100042' or '100042'. */
function orderNumberOf(text: string): number | null {
  const label = text.trim().toUpperCase();
  return parseOrderNumberLabel(/^\d+$/.test(label) ? `BG-${label}` : label);
}

/** The payments page: every customer's orders, newest first, filtered; 25 a page. */
export async function listPayments(
  ctx: ServiceContext,
  query: z.output<typeof paymentsQuerySchema>,
): Promise<PaymentsResponse> {
  const { page } = query;
  const q = query.q?.trim() || undefined;
  const { rows, total } = await listPaymentOrders(ctx.db, {
    status: query.status,
    paymentMethod: query.provider,
    kind: query.kind,
    text: q,
    orderNumber: q ? orderNumberOf(q) : null,
    limit: PAYMENTS_PAGE_SIZE,
    offset: (page - 1) * PAYMENTS_PAGE_SIZE,
  });
  return {
    payments: rows.map((row) => presentPayment(row.order, row.email, row.eventCount)),
    pagination: {
      currentPage: page,
      totalPages: Math.max(1, Math.ceil(total / PAYMENTS_PAGE_SIZE)),
      totalItems: total,
      itemsPerPage: PAYMENTS_PAGE_SIZE,
    },
  };
}

/** Any customer's order by its number (BG-100042), else a 404. */
export async function findOrderForStaff(ctx: ServiceContext, orderLabel: string): Promise<OrderRow> {
  const number = parseOrderNumberLabel(orderLabel);
  const order = number === null ? null : await getOrderByNumberForStaff(ctx.db, { number });
  if (!order) {
    throw new DomainError('NOT_FOUND', `No order ${orderLabel}`);
  }
  return order;
}

/** One payment with the webhooks its invoice got (the latest 50, newest first). */
export async function getPayment(
  ctx: ServiceContext,
  props: { orderLabel: string },
): Promise<PaymentDetailResponse> {
  const order = await findOrderForStaff(ctx, props.orderLabel);
  const events =
    order.providerInvoiceId && order.paymentMethod !== 'balance'
      ? await listInvoiceEvents(ctx.db, {
          provider: order.paymentMethod,
          providerInvoiceId: order.providerInvoiceId,
          limit: PAYMENT_EVENTS_LIMIT,
        })
      : [];
  const email = (await getUserEmail(ctx.db, { userId: order.userId })) ?? '';
  return {
    payment: presentPayment(order, email, events.length),
    events: events.map(presentPaymentEvent),
  };
}
