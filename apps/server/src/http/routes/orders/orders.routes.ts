import { invoiceParamsSchema, listOrdersQuerySchema, ordersResponseSchema } from '@bytegate/contracts/orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getInvoiceOrder } from '../../../services/billing/get-invoice-order.ts';
import { listOrders } from '../../../services/billing/list-orders.ts';
import { presentOrdersPage } from '../../../services/billing/present-orders-page.ts';
import { INVOICE_SCRIPT, renderInvoice } from '../../../services/billing/render-invoice.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';

export const ordersRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: "The user's orders, newest first, a page at a time",
        security: [{ bearer: [] }],
        querystring: listOrdersQuerySchema,
        response: { 200: ordersResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request) => {
      const { page, limit } = request.query;
      const orders = await listOrders(ctx, { userId: getAuth(request).user.id, page, pageSize: limit });
      return presentOrdersPage(orders, ctx.config.publicUrl);
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
        params: invoiceParamsSchema,
      },
      onRequest: app.requireAuth,
    },
    async (request, reply) => {
      const { user } = getAuth(request);
      const order = await getInvoiceOrder(ctx, { userId: user.id, orderLabel: request.params.orderId });
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(renderInvoice(order, user, ctx.config.publicUrl));
    },
  );
};
