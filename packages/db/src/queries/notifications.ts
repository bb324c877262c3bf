import { and, asc, eq, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { sessions } from '../schema/accounts.ts';
import { notifications } from '../schema/notifications.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type NotificationKindValue = NotificationRow['kind'];

/**
 * Records something to tell a customer of; the jobs mail it and hand it to the webhook. Call it in the
 * transaction that made the thing so, where there is one, so it is told exactly when it happened.
 * (Typed per kind by the server's `notify`.)
 */
export async function insertNotification(
  db: Executor,
  params: {
    userId: string;
    kind: NotificationKindValue;
    payload: Record<string, unknown>;
    /** Set for one handled where it is made (the webhook's test), which the jobs then leave alone. */
    dispatchedAt?: Date;
    mailStatus?: NotificationRow['mailStatus'];
  },
): Promise<NotificationRow> {
  const [row] = await db.insert(notifications).values(params).returning();
  if (!row) {
    throw new Error('notification insert returned no row');
  }
  return row;
}

/**
 * Whether the account had signed in before, and whether ever from this address: a sign-in is "new"
 * when there was an earlier one and none from the address. `exceptSessionId` is the session just opened.
 */
export async function getSignInHistory(
  db: Executor,
  params: { userId: string; ipAddress: string; exceptSessionId: string },
): Promise<{ hasEarlier: boolean; hasFromAddress: boolean }> {
  const [row] = await db
    .select({
      hasEarlier: sql<boolean>`count(*) > 0`,
      hasFromAddress: sql<boolean>`coalesce(bool_or(${sessions.ipAddress} = ${params.ipAddress}::inet), false)`,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, params.userId), ne(sessions.id, params.exceptSessionId)));
  return { hasEarlier: row?.hasEarlier ?? false, hasFromAddress: row?.hasFromAddress ?? false };
}

/**
 * Takes up to `limit` notifications not yet dispatched, oldest first, and marks them dispatched in the
 * same statement (rows another jobs process holds are skipped), so each is handed out once. Their
 * mail stays `pending` until it is sent: `listStaleMailNotifications` finds those a crash left behind.
 */
export async function claimUndispatchedNotifications(
  db: Executor,
  params: { now: Date; limit: number },
): Promise<NotificationRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(isNull(notifications.dispatchedAt))
      .orderBy(asc(notifications.createdAt))
      .limit(params.limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) {
      return [];
    }
    const rows = await tx
      .update(notifications)
      .set({ dispatchedAt: params.now })
      .where(
        inArray(
          notifications.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  });
}

/**
 * Notifications dispatched more than `olderThanMs` ago whose mail is still `pending` (the process that
 * took them stopped before sending), re-dated so that only one process retries each.
 */
export async function claimStaleMailNotifications(
  db: Executor,
  params: { now: Date; olderThanMs: number; limit: number },
): Promise<NotificationRow[]> {
  return db.transaction(async (tx) => {
    const stale = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.mailStatus, 'pending'),
          lt(notifications.dispatchedAt, new Date(params.now.getTime() - params.olderThanMs)),
        ),
      )
      .limit(params.limit)
      .for('update', { skipLocked: true });
    if (stale.length === 0) {
      return [];
    }
    return tx
      .update(notifications)
      .set({ dispatchedAt: params.now })
      .where(
        inArray(
          notifications.id,
          stale.map((row) => row.id),
        ),
      )
      .returning();
  });
}

export async function setNotificationMailStatus(
  db: Executor,
  params: { notificationId: string; status: NotificationRow['mailStatus']; error?: string | null },
): Promise<void> {
  await db
    .update(notifications)
    .set({ mailStatus: params.status, mailError: params.error ?? null })
    .where(eq(notifications.id, params.notificationId));
}
