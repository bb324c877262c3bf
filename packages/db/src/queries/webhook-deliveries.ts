import { and, asc, desc, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { notifications, webhookDeliveries, webhookDeliveryAttempts } from '../schema/notifications.ts';

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

export async function createWebhookDelivery(
  db: Executor,
  params: { notificationId: string; userId: string; url: string; nextAttemptAt?: Date },
): Promise<WebhookDeliveryRow> {
  const [row] = await db.insert(webhookDeliveries).values(params).returning();
  if (!row) {
    throw new Error('webhook delivery insert returned no row');
  }
  return row;
}

/** A delivery with the notification it carries: what is POSTed. */
export interface DueWebhookDelivery {
  delivery: WebhookDeliveryRow;
  notification: { id: string; kind: string; payload: Record<string, unknown>; createdAt: Date };
}

/**
 * Takes up to `limit` pending deliveries whose time has come and leases them for `leaseMs` (their next
 * attempt moves that far ahead), so that another jobs process never POSTs the same one at once and a
 * process that dies mid-POST only delays it.
 *
 * At most one per account, its oldest due (by creation: an account's events go out in order, one at a
 * time), and none of `busyUserIds` (accounts with a POST on its way here); then the accounts that have
 * waited longest first.
 */
export async function claimDueWebhookDeliveries(
  db: Executor,
  params: { now: Date; limit: number; leaseMs: number; busyUserIds?: readonly string[] },
): Promise<DueWebhookDelivery[]> {
  if (params.limit <= 0) {
    return [];
  }
  const busy = params.busyUserIds ?? [];
  return db.transaction(async (tx) => {
    const firstOfEachAccount = sql`(
      select distinct on (${webhookDeliveries.userId}) ${webhookDeliveries.id}
      from ${webhookDeliveries}
      where ${webhookDeliveries.status} = 'pending'
        and ${webhookDeliveries.nextAttemptAt} <= ${params.now.toISOString()}
        ${busy.length > 0 ? sql`and ${notInArray(webhookDeliveries.userId, [...busy])}` : sql``}
      order by ${webhookDeliveries.userId}, ${webhookDeliveries.createdAt}, ${webhookDeliveries.id}
    )`;
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(sql`${webhookDeliveries.id} in ${firstOfEachAccount}`)
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(params.limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) {
      return [];
    }
    const leased = await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(params.now.getTime() + params.leaseMs) })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    return joinNotifications(tx, leased);
  });
}

async function joinNotifications(db: Executor, rows: WebhookDeliveryRow[]): Promise<DueWebhookDelivery[]> {
  if (rows.length === 0) {
    return [];
  }
  const found = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      payload: notifications.payload,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(
      inArray(
        notifications.id,
        rows.map((row) => row.notificationId),
      ),
    );
  const byId = new Map(found.map((row) => [row.id, row]));
  return rows.flatMap((delivery) => {
    const notification = byId.get(delivery.notificationId);
    return notification ? [{ delivery, notification }] : [];
  });
}

/**
 * Writes one POST's outcome: the attempt in the log, and the delivery's new state (delivered, failed
 * for good, or pending until `nextAttemptAt`).
 */
export async function recordWebhookAttempt(
  db: Executor,
  params: {
    deliveryId: string;
    attempt: Omit<typeof webhookDeliveryAttempts.$inferInsert, 'id' | 'deliveryId'>;
    /** Where it was sent, when the webhook's address changed since the delivery was made. */
    url?: string;
    outcome:
      | { status: 'delivered'; at: Date }
      | { status: 'failed' }
      | { status: 'pending'; nextAttemptAt: Date };
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(webhookDeliveryAttempts).values({ deliveryId: params.deliveryId, ...params.attempt });
    const { outcome } = params;
    await tx
      .update(webhookDeliveries)
      .set({
        status: outcome.status,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        lastStatusCode: params.attempt.statusCode ?? null,
        lastError: params.attempt.error ?? null,
        ...(params.url ? { url: params.url } : {}),
        ...(outcome.status === 'delivered' ? { deliveredAt: outcome.at } : {}),
        ...(outcome.status === 'pending' ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
      })
      .where(eq(webhookDeliveries.id, params.deliveryId));
  });
}

/** A page of an account's deliveries, newest first, with their attempts; `before` is the cursor. */
export async function listWebhookDeliveries(
  db: Executor,
  params: {
    userId: string;
    limit: number;
    before?: { createdAt: Date; id: string } | undefined;
    /** Only this delivery (the test just sent). */
    deliveryId?: string;
  },
): Promise<Array<DueWebhookDelivery & { attempts: WebhookAttemptRow[] }>> {
  const { before } = params;
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.userId, params.userId),
        params.deliveryId ? eq(webhookDeliveries.id, params.deliveryId) : undefined,
        before
          ? or(
              lt(webhookDeliveries.createdAt, before.createdAt),
              and(eq(webhookDeliveries.createdAt, before.createdAt), lt(webhookDeliveries.id, before.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(params.limit);
  const joined = await joinNotifications(db, rows);
  if (joined.length === 0) {
    return [];
  }
  const attempts = await db
    .select()
    .from(webhookDeliveryAttempts)
    .where(
      inArray(
        webhookDeliveryAttempts.deliveryId,
        joined.map((row) => row.delivery.id),
      ),
    )
    .orderBy(asc(webhookDeliveryAttempts.attemptedAt));
  return joined.map((row) => ({
    ...row,
    attempts: attempts.filter((attempt) => attempt.deliveryId === row.delivery.id),
  }));
}
