import { and, eq, ne, sql } from 'drizzle-orm';
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
  params: { userId: string; kind: NotificationKindValue; payload: Record<string, unknown> },
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
