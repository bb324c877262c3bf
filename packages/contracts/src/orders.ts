import { z } from 'zod';
import { orderIdSchema, orderSchema } from './billing.ts';
import { ORDERS_PAGE_SIZE } from './constants.ts';

/** `?page=` of a paged list: a whole number from 1, 1 when absent. */
export const pageQueryField = z.coerce
  .number({ error: 'Page must be a number' })
  .int('Page must be a whole number')
  .min(1, 'Page must be 1 or more')
  .max(100_000)
  .default(1);

/** `GET /orders`: one page of the user's orders, newest first. */
export const listOrdersQuerySchema = z.object({
  page: pageQueryField,
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int()
    .min(1)
    .max(100, 'Limit must be at most 100')
    .default(ORDERS_PAGE_SIZE),
});
export type ListOrdersQuery = z.input<typeof listOrdersQuerySchema>;

export const paginationSchema = z.object({
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalItems: z.number().int(),
  itemsPerPage: z.number().int(),
});
export type Pagination = z.infer<typeof paginationSchema>;

export const ordersResponseSchema = z.object({
  orders: z.array(orderSchema),
  pagination: paginationSchema,
});
export type OrdersResponse = z.infer<typeof ordersResponseSchema>;

/** `GET /orders/:orderId/invoice`: the order's number as people see it (BG-…). */
export const invoiceParamsSchema = z.object({ orderId: orderIdSchema });
