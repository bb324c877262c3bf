import { and, asc, desc, eq, gt, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { sessions, users } from '../schema/accounts.ts';
import { ledgerEntries, orders } from '../schema/billing.ts';
import { planAllowlist, proxySettings } from '../schema/inventory.ts';
import { plans } from '../schema/plans.ts';
import type { PlanRow } from './plans.ts';
import type { UserRow } from './users.ts';

// What the back office reads and changes about any customer. Unlike the customer-facing queries these
// are not scoped by an owner: the staff guard on /api/admin is what authorizes them.

export type CustomerMatchField = 'email' | 'name' | 'proxy_login' | 'ip' | 'order' | 'invoice';
export type UserRole = UserRow['role'];

const notDeleted = isNull(users.deletedAt);

/** The most recent accounts (not deleted), newest first. */
export async function listRecentUsers(db: Executor, params: { limit: number }): Promise<UserRow[]> {
  return db.select().from(users).where(notDeleted).orderBy(desc(users.createdAt)).limit(params.limit);
}

/** `%`, `_` and `\` matched as themselves in an ILIKE pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Accounts matching a search text, each once with the first field it matched, in this order: email
 * (contains), name (first, last or both, contains), proxy login (exact), allowlisted address (exact, or
 * the address of a /32 or /128 entry), an address it signed in from (exact), order number (exact, as `orderNumber`), provider invoice id (exact).
 */
export async function searchUsers(
  db: Executor,
  params: { text: string; orderNumber: number | null; limit: number },
): Promise<Array<{ user: UserRow; matchedBy: CustomerMatchField }>> {
  const pattern = `%${escapeLike(params.text)}%`;
  const lowered = params.text.toLowerCase();
  const searches: Array<[CustomerMatchField, () => Promise<UserRow[]>]> = [
    [
      'email',
      () =>
        db
          .select()
          .from(users)
          .where(and(notDeleted, ilike(users.email, pattern)))
          .limit(params.limit),
    ],
    [
      'name',
      () =>
        db
          .select()
          .from(users)
          .where(
            and(
              notDeleted,
              or(
                ilike(users.firstName, pattern),
                ilike(users.lastName, pattern),
                ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
              ),
            ),
          )
          .limit(params.limit),
    ],
    [
      'proxy_login',
      async () =>
        (
          await db
            .select({ user: users })
            .from(plans)
            .innerJoin(users, eq(users.id, plans.userId))
            .where(and(notDeleted, eq(sql`lower(${plans.login})`, lowered)))
            .limit(params.limit)
        ).map((row) => row.user),
    ],
    [
      'ip',
      async () =>
        (
          await db
            .selectDistinct({ user: users })
            .from(planAllowlist)
            .innerJoin(plans, eq(plans.id, planAllowlist.planId))
            .innerJoin(users, eq(users.id, plans.userId))
            .where(
              and(notDeleted, inArray(planAllowlist.address, [lowered, `${lowered}/32`, `${lowered}/128`])),
            )
            .limit(params.limit)
        ).map((row) => row.user),
    ],
    [
      // An address the account was seen at: where it signed in from (sessions are kept 30 days past expiry).
      'ip',
      async () =>
        (
          await db
            .selectDistinct({ user: users })
            .from(sessions)
            .innerJoin(users, eq(users.id, sessions.userId))
            .where(and(notDeleted, eq(sql`host(${sessions.ipAddress})`, lowered)))
            .limit(params.limit)
        ).map((row) => row.user),
    ],
    [
      'order',
      async () =>
        params.orderNumber === null
          ? []
          : (
              await db
                .select({ user: users })
                .from(orders)
                .innerJoin(users, eq(users.id, orders.userId))
                .where(and(notDeleted, eq(orders.number, params.orderNumber)))
                .limit(1)
            ).map((row) => row.user),
    ],
    [
      'invoice',
      async () =>
        (
          await db
            .selectDistinct({ user: users })
            .from(orders)
            .innerJoin(users, eq(users.id, orders.userId))
            .where(and(notDeleted, eq(orders.providerInvoiceId, params.text)))
            .limit(params.limit)
        ).map((row) => row.user),
    ],
  ];
  const found = new Map<string, { user: UserRow; matchedBy: CustomerMatchField }>();
  for (const [matchedBy, search] of searches) {
    for (const user of await search()) {
      if (!found.has(user.id) && found.size < params.limit) {
        found.set(user.id, { user, matchedBy });
      }
    }
  }
  return [...found.values()];
}

/** A user's latest ledger entries, newest first: in the order the balance moved (`seq`), not by time. */
export async function listLedgerEntries(db: Executor, params: { userId: string; limit: number }) {
  return db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, params.userId))
    .orderBy(desc(ledgerEntries.seq))
    .limit(params.limit);
}

/** Every plan of a user (inactive ones too), with its saved targeting and allowlist. */
export async function listUserPlansInFull(db: Executor, params: { userId: string }) {
  const rows = await db
    .select({ plan: plans, settings: proxySettings })
    .from(plans)
    .leftJoin(proxySettings, eq(proxySettings.planId, plans.id))
    .where(eq(plans.userId, params.userId))
    .orderBy(asc(plans.createdAt));
  const planIds = rows.map((row) => row.plan.id);
  const addresses =
    planIds.length === 0
      ? []
      : await db
          .select({ planId: planAllowlist.planId, address: planAllowlist.address })
          .from(planAllowlist)
          .where(inArray(planAllowlist.planId, planIds))
          .orderBy(asc(planAllowlist.createdAt), asc(planAllowlist.address));
  return rows.map((row) => ({
    ...row,
    allowlist: addresses.filter((entry) => entry.planId === row.plan.id).map((entry) => entry.address),
  }));
}

/** A user's latest orders, newest first. */
export async function listLatestOrders(db: Executor, params: { userId: string; limit: number }) {
  return db
    .select()
    .from(orders)
    .where(eq(orders.userId, params.userId))
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(params.limit);
}

/** A user's live (not revoked, not expired) sessions, newest first. */
export async function listLiveSessions(db: Executor, params: { userId: string; now: Date }) {
  return db
    .select()
    .from(sessions)
    .where(
      and(eq(sessions.userId, params.userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, params.now)),
    )
    .orderBy(desc(sessions.createdAt));
}

/** Locks a (not deleted) user's row for the rest of the transaction; null when there is none. */
export async function lockUser(tx: Executor, params: { userId: string }): Promise<UserRow | null> {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, params.userId), notDeleted))
    .for('update');
  return row ?? null;
}

export async function setUserRole(tx: Executor, params: { userId: string; role: UserRole }): Promise<void> {
  await tx.update(users).set({ role: params.role }).where(eq(users.id, params.userId));
}

/**
 * Disables (a date) or re-enables (null) an account, and touches its plans so a running gateway, which
 * re-reads changed plans every second, stops (or resumes) them.
 */
export async function setUserDisabledAt(
  tx: Executor,
  params: { userId: string; disabledAt: Date | null },
): Promise<void> {
  await tx.update(users).set({ disabledAt: params.disabledAt }).where(eq(users.id, params.userId));
  await tx.update(plans).set({ updatedAt: new Date() }).where(eq(plans.userId, params.userId));
}

/** Locks any plan by id for the rest of the transaction; null when there is none. */
export async function lockPlan(tx: Executor, params: { planId: string }) {
  const [row] = await tx.select().from(plans).where(eq(plans.id, params.planId)).for('update');
  return row ?? null;
}

/** Sets a plan's thread limit, touching `updated_at` so the gateway's refresh picks it up. */
export async function setPlanThreadLimit(
  tx: Executor,
  params: { planId: string; threadLimit: number },
): Promise<PlanRow | null> {
  const [row] = await tx
    .update(plans)
    .set({ threadLimit: params.threadLimit, updatedAt: new Date() })
    .where(eq(plans.id, params.planId))
    .returning();
  return row ?? null;
}

/**
 * Locks a staff member's row for the transaction against another such lock (FOR NO KEY UPDATE, so the
 * audit log's foreign key checks on it do not wait): what they may still do today is read and spent by
 * one action at a time.
 */
export async function lockStaffMember(tx: Executor, params: { userId: string }): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, params.userId))
    .for('no key update');
  return rows.length > 0;
}
