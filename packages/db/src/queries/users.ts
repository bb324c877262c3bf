import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { plans } from '../schema/plans.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** Inserts a user; answers null when the email is already taken (unique violation). */
export async function createUser(db: Executor, params: NewUser): Promise<UserRow | null> {
  const [row] = await db
    .insert(users)
    .values(params)
    .onConflictDoNothing({ target: users.email })
    .returning();
  return row ?? null;
}

/** An active (not deleted) user by lower-cased email. */
export async function getActiveUserByEmail(db: Executor, params: { email: string }): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, params.email), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function getActiveUserById(db: Executor, params: { userId: string }): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, params.userId), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function updateUserPasswordHash(
  db: Executor,
  params: { userId: string; passwordHash: string },
): Promise<void> {
  await db.update(users).set({ passwordHash: params.passwordHash }).where(eq(users.id, params.userId));
}

/** Saves a user's names and company; answers the row, or null when there is no such active account. */
export async function updateUserProfile(
  db: Executor,
  params: { userId: string; firstName: string; lastName: string; company: string | null },
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ firstName: params.firstName, lastName: params.lastName, company: params.company })
    .where(and(eq(users.id, params.userId), isNull(users.deletedAt)))
    .returning();
  return row ?? null;
}

/**
 * Makes `email` the account's proven address: marks it verified (keeping an earlier proof of the same
 * address), switching to it when it is a new one. A taken address fails on the unique email.
 */
export async function setVerifiedEmail(
  db: Executor,
  params: { userId: string; email: string; now: Date },
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({
      emailVerifiedAt: sql`case when ${users.email} = ${params.email} then coalesce(${users.emailVerifiedAt}, ${params.now.toISOString()}::timestamptz) else ${params.now.toISOString()}::timestamptz end`,
      email: params.email,
    })
    .where(and(eq(users.id, params.userId), isNull(users.deletedAt)))
    .returning();
  return row ?? null;
}

/**
 * Marks the account deleted and overwrites its personal fields. The row stays so that financial
 * records (orders, ledger) keep their owner; the email is freed for a new sign-up.
 */
export async function eraseUser(db: Executor, params: { userId: string; now: Date }): Promise<void> {
  await db
    .update(users)
    .set({
      email: `deleted-${params.userId}@deleted.invalid`,
      passwordHash: '!',
      firstName: 'Deleted',
      lastName: 'User',
      company: null,
      googleSubject: null,
      googleEmail: null,
      deletedAt: params.now,
    })
    .where(and(eq(users.id, params.userId), isNull(users.deletedAt)));
}

/**
 * Sets what support has unblocked for a customer, and touches their plans so a running gateway, which
 * re-reads changed plans every second, picks it up. Answers null when there is no such account.
 */
export async function setUserUnblocks(
  tx: Executor,
  params: { userId: string; ports: number[]; hosts: string[] },
): Promise<UserRow | null> {
  const [row] = await tx
    .update(users)
    .set({ unblockedPorts: params.ports, unblockedHosts: params.hosts })
    .where(and(eq(users.id, params.userId), isNull(users.deletedAt)))
    .returning();
  if (row) {
    await tx.update(plans).set({ updatedAt: new Date() }).where(eq(plans.userId, params.userId));
  }
  return row ?? null;
}
