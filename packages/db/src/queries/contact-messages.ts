import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { contactMessageEntries, contactMessages, users } from '../schema/accounts.ts';
import type { UserRow } from './users.ts';

export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type ContactEntryRow = typeof contactMessageEntries.$inferSelect;
export type ContactStatus = ContactMessageRow['status'];

export async function createContactMessage(
  db: Executor,
  params: typeof contactMessages.$inferInsert,
): Promise<ContactMessageRow> {
  const [row] = await db.insert(contactMessages).values(params).returning();
  if (!row) {
    throw new Error('contact message insert returned no row');
  }
  return row;
}

// The support inbox's reads and writes. Like the other back-office queries they are not scoped by an
// owner: the staff guard on /api/admin is what authorizes them.

/** Which messages the inbox lists; every field left out does not narrow it. */
export interface ContactMessageFilter {
  status?: ContactStatus | undefined;
  /** A staff member's id, or null for the messages nobody owns. */
  assigneeUserId?: string | null | undefined;
  /** Contained (any case) in the name, email, subject or message. */
  text?: string | undefined;
}

/** `%`, `_` and `\` matched as themselves in an ILIKE pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function whereOf(filter: ContactMessageFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.status) {
    conditions.push(eq(contactMessages.status, filter.status));
  }
  if (filter.assigneeUserId === null) {
    conditions.push(isNull(contactMessages.assigneeUserId));
  } else if (filter.assigneeUserId !== undefined) {
    conditions.push(eq(contactMessages.assigneeUserId, filter.assigneeUserId));
  }
  if (filter.text) {
    const pattern = `%${escapeLike(filter.text)}%`;
    const matches = or(
      ilike(contactMessages.name, pattern),
      ilike(contactMessages.email, pattern),
      ilike(contactMessages.subject, pattern),
      ilike(contactMessages.message, pattern),
    );
    if (matches) {
      conditions.push(matches);
    }
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

const entriesOfKind = (kind: ContactEntryRow['kind']) =>
  sql<number>`(select count(*) from ${contactMessageEntries} where ${contactMessageEntries.messageId} = ${contactMessages.id} and ${contactMessageEntries.kind} = ${kind})`.mapWith(
    Number,
  );

/** One page of messages, newest first, each with its assignee and how many replies and notes it has. */
export async function listContactMessages(
  db: Executor,
  params: ContactMessageFilter & { limit: number; offset: number },
) {
  const where = whereOf(params);
  const rows = await db
    .select({
      message: contactMessages,
      assignee: users,
      replyCount: entriesOfKind('reply'),
      noteCount: entriesOfKind('note'),
    })
    .from(contactMessages)
    .leftJoin(users, eq(users.id, contactMessages.assigneeUserId))
    .where(where)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(params.limit)
    .offset(params.offset);
  const [totals] = await db.select({ total: count() }).from(contactMessages).where(where);
  return { rows, total: totals?.total ?? 0 };
}

/** How many messages each status holds under a filter (its own status left out). */
export async function countContactMessagesByStatus(
  db: Executor,
  params: Omit<ContactMessageFilter, 'status'>,
): Promise<Record<ContactStatus, number>> {
  const rows = await db
    .select({ status: contactMessages.status, total: count() })
    .from(contactMessages)
    .where(whereOf({ ...params, status: undefined }))
    .groupBy(contactMessages.status);
  const counts: Record<ContactStatus, number> = { new: 0, open: 0, answered: 0, closed: 0 };
  for (const row of rows) {
    counts[row.status] = row.total;
  }
  return counts;
}

/** One message with its assignee; null when there is none. */
export async function getContactMessage(
  db: Executor,
  params: { messageId: string },
): Promise<{ message: ContactMessageRow; assignee: UserRow | null } | null> {
  const [row] = await db
    .select({ message: contactMessages, assignee: users })
    .from(contactMessages)
    .leftJoin(users, eq(users.id, contactMessages.assigneeUserId))
    .where(eq(contactMessages.id, params.messageId));
  return row ?? null;
}

/** Locks one message for the rest of the transaction; null when there is none. */
export async function lockContactMessage(
  tx: Executor,
  params: { messageId: string },
): Promise<ContactMessageRow | null> {
  const [row] = await tx
    .select()
    .from(contactMessages)
    .where(eq(contactMessages.id, params.messageId))
    .for('update');
  return row ?? null;
}

/** Sets a message's status and/or assignee (null unassigns); `updated_at` moves with it. */
export async function updateContactMessage(
  tx: Executor,
  params: { messageId: string; status?: ContactStatus; assigneeUserId?: string | null },
): Promise<void> {
  await tx
    .update(contactMessages)
    .set({
      ...(params.status ? { status: params.status } : {}),
      ...(params.assigneeUserId !== undefined ? { assigneeUserId: params.assigneeUserId } : {}),
      updatedAt: new Date(),
    })
    .where(eq(contactMessages.id, params.messageId));
}

/** Appends a note or a reply to a message's thread. */
export async function insertContactEntry(
  tx: Executor,
  params: typeof contactMessageEntries.$inferInsert,
): Promise<ContactEntryRow> {
  const [row] = await tx.insert(contactMessageEntries).values(params).returning();
  if (!row) {
    throw new Error('contact entry insert returned no row');
  }
  return row;
}

/** A message's notes and replies, oldest first. */
export async function listContactEntries(
  db: Executor,
  params: { messageId: string },
): Promise<ContactEntryRow[]> {
  return db
    .select()
    .from(contactMessageEntries)
    .where(eq(contactMessageEntries.messageId, params.messageId))
    .orderBy(asc(contactMessageEntries.createdAt), asc(contactMessageEntries.id));
}

/** Staff who may own a message: support and admins, neither deleted nor disabled, by email. */
export async function listAssignableStaff(db: Executor): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(and(inArray(users.role, ['support', 'admin']), isNull(users.deletedAt), isNull(users.disabledAt)))
    .orderBy(asc(users.email));
}
