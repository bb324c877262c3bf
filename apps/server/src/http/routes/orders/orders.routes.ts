import { orderSchema } from '@bytegate/contracts/billing';
import { ORDERS_PAGE_SIZE } from '@bytegate/contracts/constants';
import { listOrders } from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { presentOrder } from '../../../services/billing/present-order.ts';
import type { ServiceContext } from '../../../services/context.ts';
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
};
