import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { sessions, users } from '../schema/accounts.ts';
import { plans } from '../schema/plans.ts';
import type { PlanRow } from './plans.ts';
import type { UserRow } from './users.ts';

export type SessionRow = typeof sessions.$inferSelect;

export async function createSession(
  db: Executor,
  params: {
    userId: string;
    tokenHash: string;
    expiresAt: Date;
    ipAddress?: string | null;
    userAgent?: string | null;
  },
): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(params).returning();
  if (!row) {
    throw new Error('session insert returned no row');
  }
  return row;
}

/**
 * The live session for a token hash with its (not deleted, not disabled) user, or null when unknown,
 * expired or revoked. Disabling revokes the sessions too; the check here holds should one slip through.
 */
export async function getLiveSessionByTokenHash(
  db: Executor,
  params: { tokenHash: string; now: Date },
): Promise<{ session: SessionRow; user: UserRow } | null> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, params.tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, params.now),
        isNull(users.deletedAt),
        isNull(users.disabledAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function touchSession(db: Executor, params: { sessionId: string; now: Date }): Promise<void> {
  await db.update(sessions).set({ lastUsedAt: params.now }).where(eq(sessions.id, params.sessionId));
}

export async function revokeSession(
  db: Executor,
  params: { sessionId: string; userId: string; now: Date },
): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: params.now })
    .where(
      and(eq(sessions.id, params.sessionId), eq(sessions.userId, params.userId), isNull(sessions.revokedAt)),
    );
}

/** Revokes every live session of a user, optionally sparing one (the one changing the password). */
export async function revokeUserSessions(
  db: Executor,
  params: { userId: string; now: Date; exceptSessionId?: string },
): Promise<number> {
  const conditions = [eq(sessions.userId, params.userId), isNull(sessions.revokedAt)];
  if (params.exceptSessionId) {
    conditions.push(ne(sessions.id, params.exceptSessionId));
  }
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: params.now })
    .where(and(...conditions))
    .returning({ id: sessions.id });
  return revoked.length;
}

/** Drops sessions that ended long ago, so the table does not grow without bound. */
export async function deleteEndedSessions(db: Executor, params: { before: Date }): Promise<void> {
  await db
    .delete(sessions)
    .where(sql`coalesce(${sessions.revokedAt}, ${sessions.expiresAt}) < ${params.before.toISOString()}`);
}

/**
 * The live view's one read per account and tick: which of `sessionIds` are still live (not revoked,
 * not expired, the user neither deleted nor disabled), and, with `withPlans`, the account's plans. One
 * statement, however many streams share it.
 */
export async function readLiveViewAccount(
  db: Executor,
  params: { userId: string; sessionIds: readonly string[]; now: Date; withPlans: boolean },
): Promise<{ liveSessionIds: Set<string>; plans: Array<{ planId: string; poolType: PlanRow['poolType'] }> }> {
  const ids = params.sessionIds.length > 0 ? params.sessionIds : ['00000000-0000-0000-0000-000000000000'];
  const rows = await db
    .select({
      liveSessionIds: sql<
        string | null
      >`case when ${users.deletedAt} is null and ${users.disabledAt} is null then (
        select string_agg(s.id::text, ',') from ${sessions} s
        where s.user_id = ${users.id}
          and s.id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})
          and s.revoked_at is null
          and s.expires_at > ${params.now.toISOString()}
      ) end`,
      planId: plans.id,
      poolType: plans.poolType,
    })
    .from(users)
    .leftJoin(plans, params.withPlans ? eq(plans.userId, users.id) : sql`false`)
    .where(eq(users.id, params.userId))
    .orderBy(plans.createdAt);
  const live = rows[0]?.liveSessionIds;
  return {
    liveSessionIds: new Set(live ? live.split(',') : []),
    plans: rows.flatMap((row) =>
      row.planId && row.poolType ? [{ planId: row.planId, poolType: row.poolType }] : [],
    ),
  };
}
