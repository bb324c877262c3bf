import { orderIdSchema, orderSchema } from '@bytegate/contracts/billing';
import { ORDERS_PAGE_SIZE } from '@bytegate/contracts/constants';
import { getOrderByNumber, listOrders } from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseOrderNumberLabel, presentOrder } from '../../../services/billing/present-order.ts';
import { INVOICE_SCRIPT, renderInvoice } from '../../../services/billing/render-invoice.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { AppError } from '../../app-error.ts';
import { getAuth } from '../../plugins/auth.ts';

const pageQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'Page must be a number' })
    .int()
    .min(1, 'Page must be 1 or more')
    .max(100_000)
    .default(1),
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int()
    .min(1)
    .max(100, 'Limit must be at most 100')
    .default(ORDERS_PAGE_SIZE),
});

export const ordersResponseSchema = z.object({
  orders: z.array(orderSchema),
  pagination: z.object({
    currentPage: z.number().int(),
    totalPages: z.number().int(),
    totalItems: z.number().int(),
    itemsPerPage: z.number().int(),
  }),
});

export const ordersRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: "The user's orders, newest first, a page at a time",
        security: [{ bearer: [] }],
        querystring: pageQuerySchema,
        response: { 200: ordersResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request) => {
      const { page, limit } = request.query;
      const { rows, total } = await listOrders(ctx.db, {
        userId: getAuth(request).user.id,
        limit,
        offset: (page - 1) * limit,
      });
      return {
        orders: rows.map((row) => presentOrder(row, ctx.config.publicUrl)),
        pagination: {
          currentPage: page,
          totalPages: Math.max(1, Math.ceil(total / limit)),
          totalItems: total,
          itemsPerPage: limit,
        },
      };
    },
  );

  app.get('/orders/invoice.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(INVOICE_SCRIPT),
  );

  app.get(
    '/orders/:orderId/invoice',
    {
      schema: {
        tags: ['orders'],
        summary: 'The printable invoice (HTML) of a completed order',
        security: [{ bearer: [] }],
        params: z.object({ orderId: orderIdSchema }),
      },
      onRequest: app.requireAuth,
    },
    async (request, reply) => {
      const { user } = getAuth(request);
      const number = parseOrderNumberLabel(request.params.orderId);
      const order = number === null ? null : await getOrderByNumber(ctx.db, { userId: user.id, number });
      if (order?.status !== 'completed') {
        throw new AppError('NOT_FOUND', 'No invoice for this order');
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(renderInvoice(order, user, ctx.config.publicUrl));
    },
  );
};
