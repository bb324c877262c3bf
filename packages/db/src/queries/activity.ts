import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { accountActivity } from '../schema/activity.ts';

export type ActivityRow = typeof accountActivity.$inferSelect;

/**
 * Records one entry of a customer's activity feed. Call it in the transaction that made the thing so,
 * where there is one, so the entry exists exactly when the change does. (Typed per kind by the
 * server's `recordActivity`.)
 */
export async function insertActivity(
  db: Executor,
  params: {
    userId: string;
    kind: string;
    details: Record<string, unknown>;
    ipAddress?: string | null;
    userAgent?: string | null;
  },
): Promise<ActivityRow> {
  const [row] = await db.insert(accountActivity).values(params).returning();
  if (!row) {
    throw new Error('activity insert returned no row');
  }
  return row;
}

/**
 * `created_at` to the microsecond, as UTC ISO text: a page's cursor must name its last row exactly (a
 * JavaScript Date keeps milliseconds only, and a cursor cut to them would skip or repeat rows).
 */
const createdAtExact = sql<string>`to_char(${accountActivity.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * A page of one account's entries, newest first, older than a (created_at, id) cursor; `createdAt` is
 * the exact text a previous page's `createdAtExact` gave. Served by the (user_id, created_at, id) index.
 */
export async function listActivity(
  db: Executor,
  params: { userId: string; before?: { createdAt: string; id: string } | undefined; limit: number },
): Promise<Array<{ entry: ActivityRow; createdAtExact: string }>> {
  const { before } = params;
  return db
    .select({ entry: accountActivity, createdAtExact })
    .from(accountActivity)
    .where(
      and(
        eq(accountActivity.userId, params.userId),
        before
          ? or(
              sql`${accountActivity.createdAt} < ${before.createdAt}::timestamptz`,
              and(
                sql`${accountActivity.createdAt} = ${before.createdAt}::timestamptz`,
                lt(accountActivity.id, before.id),
              ),
            )
          : undefined,
      ),
    )
    .orderBy(desc(accountActivity.createdAt), desc(accountActivity.id))
    .limit(params.limit);
}

/** Drops every account's entries older than `before` (retention). */
export async function deleteActivityBefore(db: Executor, params: { before: Date }): Promise<void> {
  await db.delete(accountActivity).where(lt(accountActivity.createdAt, params.before));
}

/** Drops one account's entries (its deletion: addresses, browsers and emails are personal data). */
export async function deleteUserActivity(db: Executor, params: { userId: string }): Promise<void> {
  await db.delete(accountActivity).where(eq(accountActivity.userId, params.userId));
}
