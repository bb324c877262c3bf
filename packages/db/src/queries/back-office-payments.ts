import { and, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { orders, paymentEvents } from '../schema/billing.ts';
import { plans } from '../schema/plans.ts';
import type { OrderRow, PaymentEventRow } from './orders.ts';
import type { PlanRow } from './plans.ts';

// What the back office reads and changes about any customer's payments: orders by number whoever owns
// them, the payments page's list, an invoice's webhooks, and a refund's bytes off a plan. Not scoped by
// an owner: the staff guard on /api/admin is what authorizes them.

/** Any customer's order by its public number. */
export async function getOrderByNumberForStaff(
  db: Executor,
  params: { number: number },
): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.number, params.number)).limit(1);
  return row ?? null;
}

export interface PaymentListRow {
  order: OrderRow;
  email: string;
  eventCount: number;
}

/**
 * One page of every customer's orders, newest first, with the owner's email and how many webhooks the
 * invoice got. `text` matches the order number (as `orderNumber`) or the provider's invoice id exactly,
 * or the email (contains).
 */
export async function listPaymentOrders(
  db: Executor,
  params: {
    status?: OrderRow['status'] | undefined;
    paymentMethod?: OrderRow['paymentMethod'] | undefined;
    kind?: OrderRow['kind'] | undefined;
    text?: string | undefined;
    orderNumber?: number | null | undefined;
    limit: number;
    offset: number;
  },
): Promise<{ rows: PaymentListRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (params.status) {
    conditions.push(eq(orders.status, params.status));
  }
  if (params.paymentMethod) {
    conditions.push(eq(orders.paymentMethod, params.paymentMethod));
  }
  if (params.kind) {
    conditions.push(eq(orders.kind, params.kind));
  }
  if (params.text) {
    const matches: SQL[] = [
      eq(orders.providerInvoiceId, params.text),
      ilike(users.email, `%${params.text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`),
    ];
    if (params.orderNumber) {
      matches.push(eq(orders.number, params.orderNumber));
    }
    const matched = or(...matches);
    if (matched) {
      conditions.push(matched);
    }
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const eventCount = sql<number>`(select count(*)::int from ${paymentEvents} where ${paymentEvents.provider} = ${orders.paymentMethod} and ${paymentEvents.providerInvoiceId} = ${orders.providerInvoiceId})`;
  const rows = await db
    .select({ order: orders, email: users.email, eventCount })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(params.limit)
    .offset(params.offset);
  const [totals] = await db
    .select({ total: count() })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where);
  return {
    rows: rows.map((row) => ({ ...row, eventCount: Number(row.eventCount) })),
    total: totals?.total ?? 0,
  };
}

/** The webhooks stored for one invoice, newest first. */
export async function listInvoiceEvents(
  db: Executor,
  params: { provider: PaymentEventRow['provider']; providerInvoiceId: string; limit: number },
): Promise<PaymentEventRow[]> {
  return db
    .select()
    .from(paymentEvents)
    .where(
      and(
        eq(paymentEvents.provider, params.provider),
        eq(paymentEvents.providerInvoiceId, params.providerInvoiceId),
      ),
    )
    .orderBy(desc(paymentEvents.receivedAt), desc(paymentEvents.id))
    .limit(params.limit);
}

/**
 * Takes refunded bytes off a plan's traffic total (locked by the caller), touching `updated_at` so the
 * gateway's refresh sees the smaller total within a second. The database refuses a total below zero.
 */
export async function takePlanTraffic(
  tx: Executor,
  params: { planId: string; bytes: number },
): Promise<PlanRow> {
  const [row] = await tx
    .update(plans)
    .set({ trafficTotalBytes: sql`${plans.trafficTotalBytes} - ${params.bytes}`, updatedAt: new Date() })
    .where(eq(plans.id, params.planId))
    .returning();
  if (!row) {
    throw new Error(`no plan ${params.planId} to take traffic off`);
  }
  return row;
}

/** A user's email by id, deleted accounts too (their orders stay listed). */
export async function getUserEmail(db: Executor, params: { userId: string }): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, params.userId));
  return row?.email ?? null;
}
