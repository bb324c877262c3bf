import { listOrders as listOrderRows, type OrderRow } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';

export interface OrderPage {
  rows: OrderRow[];
  /** 1-based. */
  page: number;
  pageSize: number;
  /** All the user's orders, on every page. */
  total: number;
}

/** One page of the user's orders, newest first. */
export async function listOrders(
  ctx: ServiceContext,
  props: { userId: string; page: number; pageSize: number },
): Promise<OrderPage> {
  const { rows, total } = await listOrderRows(ctx.db, {
    userId: props.userId,
    limit: props.pageSize,
    offset: (props.page - 1) * props.pageSize,
  });
  return { rows, page: props.page, pageSize: props.pageSize, total };
}
