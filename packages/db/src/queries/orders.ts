import { and, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { orders } from '../schema/billing.ts';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;

export async function createOrder(db: Executor, params: NewOrder): Promise<OrderRow> {
  const [row] = await db.insert(orders).values(params).returning();
  if (!row) {
    throw new Error('order insert returned no row');
  }
  return row;
}

/** One page of a user's orders, newest first, and how many there are in all. */
export async function listOrders(
  db: Executor,
  params: { userId: string; limit: number; offset: number },
): Promise<{ rows: OrderRow[]; total: number }> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, params.userId))
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(params.limit)
    .offset(params.offset);
  const [totals] = await db.select({ total: count() }).from(orders).where(eq(orders.userId, params.userId));
  return { rows, total: totals?.total ?? 0 };
}

/** A user's order by its public number; another user's order is not found. */
export async function getOrderByNumber(
  db: Executor,
  params: { userId: string; number: number },
): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, params.userId), eq(orders.number, params.number)))
    .limit(1);
  return row ?? null;
}
