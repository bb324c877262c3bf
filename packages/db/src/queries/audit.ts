import { and, count, desc, eq, gt, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { auditLog } from '../schema/audit.ts';

export type AuditEntryRow = typeof auditLog.$inferSelect;
export type NewAuditEntry = typeof auditLog.$inferInsert;

/**
 * Appends one staff action. Call it in the transaction that makes the change, so the log never
 * records a change that did not happen, nor misses one that did. The table refuses UPDATE and DELETE.
 */
export async function insertAuditEntry(tx: Executor, params: NewAuditEntry): Promise<AuditEntryRow> {
  const [row] = await tx.insert(auditLog).values(params).returning();
  if (!row) {
    throw new Error('audit insert returned no row');
  }
  return row;
}

/** One page of the log, newest first, filtered exactly by actor email, action and target id. */
export async function listAuditEntries(
  db: Executor,
  params: { actorEmail?: string; action?: string; targetId?: string; limit: number; offset: number },
): Promise<{ rows: AuditEntryRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (params.actorEmail) {
    conditions.push(eq(auditLog.actorEmail, params.actorEmail));
  }
  if (params.action) {
    conditions.push(eq(auditLog.action, params.action));
  }
  if (params.targetId) {
    conditions.push(eq(auditLog.targetId, params.targetId));
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(params.limit)
    .offset(params.offset);
  const [totals] = await db.select({ total: count() }).from(auditLog).where(where);
  return { rows, total: totals?.total ?? 0 };
}

/** The latest entries about a user or any of their plans, newest first. */
export async function listAuditEntriesAbout(
  db: Executor,
  params: { userId: string; planIds: string[]; limit: number },
): Promise<AuditEntryRow[]> {
  const aboutUser = and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, params.userId));
  const where =
    params.planIds.length > 0
      ? or(aboutUser, and(eq(auditLog.targetType, 'plan'), inArray(auditLog.targetId, params.planIds)))
      : aboutUser;
  return db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(params.limit);
}

/**
 * The cents (absolute, from each entry's `after.amountCents`) that staff moved through `actions` since
 * the database's now less `windowHours`: by one staff member, or on one customer by staff who are not
 * admins now (the command line, which has no user, is not counted).
 */
export async function sumAuditedCents(
  db: Executor,
  params: { actions: readonly string[]; windowHours: number } & (
    | { actorUserId: string; targetUserId?: undefined }
    | { targetUserId: string; actorUserId?: undefined }
  ),
): Promise<number> {
  const recent = and(
    inArray(auditLog.action, [...params.actions]),
    gt(auditLog.createdAt, sql`now() - make_interval(hours => ${params.windowHours})`),
  );
  const total = sql<string>`coalesce(sum(abs((${auditLog.after} ->> 'amountCents')::bigint)), 0)`;
  const [row] =
    params.actorUserId !== undefined
      ? await db
          .select({ total })
          .from(auditLog)
          .where(and(recent, eq(auditLog.actorUserId, params.actorUserId)))
      : await db
          .select({ total })
          .from(auditLog)
          .innerJoin(users, eq(users.id, auditLog.actorUserId))
          .where(
            and(
              recent,
              eq(auditLog.targetType, 'user'),
              eq(auditLog.targetId, params.targetUserId),
              ne(users.role, 'admin'),
            ),
          );
  return Number(row?.total ?? 0);
}
