import type { OrdersResponse } from '@bytegate/contracts/orders';
import type { OrderPage } from './list-orders.ts';
import { presentOrder } from './present-order.ts';

export function presentOrdersPage(page: OrderPage, publicUrl: string): OrdersResponse {
  return {
    orders: page.rows.map((row) => presentOrder(row, publicUrl)),
    pagination: {
      currentPage: page.page,
      totalPages: Math.max(1, Math.ceil(page.total / page.pageSize)),
      totalItems: page.total,
      itemsPerPage: page.pageSize,
    },
  };
}
