import { and, asc, count, desc, eq, gt, inArray, lt, notExists, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { orders, paymentEvents } from '../schema/billing.ts';

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

/** Locks an order for the rest of the transaction (serializes everything that settles one top-up). */
export async function lockOrder(tx: Executor, params: { orderId: string }): Promise<OrderRow | null> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, params.orderId)).for('update');
  return row ?? null;
}

export async function updateOrder(
  db: Executor,
  params: { orderId: string; set: Partial<Omit<NewOrder, 'id' | 'userId' | 'number'>> },
): Promise<OrderRow> {
  const [row] = await db.update(orders).set(params.set).where(eq(orders.id, params.orderId)).returning();
  if (!row) {
    throw new Error(`no order ${params.orderId} to update`);
  }
  return row;
}

export async function getOrderById(db: Executor, params: { orderId: string }): Promise<OrderRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(params.orderId)) {
    return null;
  }
  const [row] = await db.select().from(orders).where(eq(orders.id, params.orderId)).limit(1);
  return row ?? null;
}

export async function getOrderByProviderInvoice(
  db: Executor,
  params: { paymentMethod: OrderRow['paymentMethod']; providerInvoiceId: string },
): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.paymentMethod, params.paymentMethod),
        eq(orders.providerInvoiceId, params.providerInvoiceId),
      ),
    )
    .limit(1);
  return row ?? null;
}

export type PaymentEventRow = typeof paymentEvents.$inferSelect;

/** Stores an inbound webhook exactly as received, before it is acted on. */
export async function insertPaymentEvent(
  db: Executor,
  params: typeof paymentEvents.$inferInsert,
): Promise<PaymentEventRow> {
  const [row] = await db.insert(paymentEvents).values(params).returning();
  if (!row) {
    throw new Error('payment event insert returned no row');
  }
  return row;
}

export async function setPaymentEventOutcome(
  db: Executor,
  params: { eventId: number; outcome: string },
): Promise<void> {
  await db.update(paymentEvents).set({ outcome: params.outcome }).where(eq(paymentEvents.id, params.eventId));
}

/**
 * Deletes webhook events received before `before`, except those of a top-up that is not settled yet
 * (pending, or held for review): whoever settles it may need them. Answers how many were deleted.
 */
export async function deletePaymentEventsBefore(db: Executor, params: { before: Date }): Promise<number> {
  const unsettledOrder = db
    .select({ one: sql`1` })
    .from(orders)
    .where(
      and(
        eq(orders.paymentMethod, paymentEvents.provider),
        eq(orders.providerInvoiceId, paymentEvents.providerInvoiceId),
        inArray(orders.status, ['pending', 'review']),
      ),
    );
  const deleted = await db
    .delete(paymentEvents)
    .where(and(lt(paymentEvents.receivedAt, params.before), notExists(unsettledOrder)))
    .returning({ id: paymentEvents.id });
  return deleted.length;
}

/** Top-ups still waiting for their provider, opened after `since`, oldest first. */
export async function listPendingTopups(
  db: Executor,
  params: { since: Date; limit: number },
): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.kind, 'topup'), eq(orders.status, 'pending'), gt(orders.createdAt, params.since)))
    .orderBy(asc(orders.createdAt))
    .limit(params.limit);
}
