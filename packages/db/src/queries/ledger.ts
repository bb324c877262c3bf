import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { ledgerEntries } from '../schema/billing.ts';

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;

/**
 * Locks the user's row for the rest of the transaction and answers the balance, or null for an unknown
 * or deleted user. Every balance change goes through this lock, so concurrent changes queue up.
 */
export async function lockUserBalance(tx: Executor, params: { userId: string }): Promise<number | null> {
  const [row] = await tx
    .select({ balanceCents: users.balanceCents })
    .from(users)
    .where(and(eq(users.id, params.userId), isNull(users.deletedAt)))
    .for('update');
  return row?.balanceCents ?? null;
}

/**
 * Writes a ledger row and moves the balance by the same amount. Call inside a transaction after
 * `lockUserBalance`; the database refuses a balance below zero. The row's `seq` is the account's last
 * plus one, read after the balance's update took the account's row lock (held to the commit), so no
 * other change of the balance can come between: read in `seq` order, each row's balance after is the
 * one before plus its amount. (Each statement reads what was committed before it began, so the insert
 * sees the row of the transaction that held the lock before this one.)
 */
export async function insertLedgerEntry(
  tx: Executor,
  params: {
    userId: string;
    kind: LedgerEntryRow['kind'];
    amountCents: number;
    orderId?: string | null;
    reason?: string | null;
  },
): Promise<LedgerEntryRow> {
  const [updated] = await tx
    .update(users)
    .set({ balanceCents: sql`${users.balanceCents} + ${params.amountCents}` })
    .where(eq(users.id, params.userId))
    .returning({ balanceCents: users.balanceCents });
  if (!updated) {
    throw new Error(`no user ${params.userId} to move the balance of`);
  }
  const [entry] = await tx
    .insert(ledgerEntries)
    .values({
      userId: params.userId,
      kind: params.kind,
      amountCents: params.amountCents,
      balanceAfterCents: updated.balanceCents,
      seq: sql`(select coalesce(max(${ledgerEntries.seq}), 0) + 1 from ${ledgerEntries} where ${ledgerEntries.userId} = ${params.userId})`,
      orderId: params.orderId ?? null,
      reason: params.reason ?? null,
    })
    .returning();
  if (!entry) {
    throw new Error('ledger insert returned no row');
  }
  return entry;
}

/** The sum of a user's ledger, which must equal their balance. */
export async function sumLedger(db: Executor, params: { userId: string }): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, params.userId));
  return Number(row?.total ?? 0);
}
