import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { accountTokens } from '../schema/account-security.ts';

export type AccountTokenRow = typeof accountTokens.$inferSelect;
export type AccountTokenPurpose = AccountTokenRow['purpose'];

/** Stores a mailed link: only its token's hash, the address it went to and when it stops working. */
export async function createAccountToken(
  db: Executor,
  params: { userId: string; purpose: AccountTokenPurpose; tokenHash: string; email: string; expiresAt: Date },
): Promise<AccountTokenRow> {
  const [row] = await db.insert(accountTokens).values(params).returning();
  if (!row) {
    throw new Error('account token insert returned no row');
  }
  return row;
}

/**
 * Ends an account's links of one purpose that still work, so that only the newest does: all of them,
 * those sent to `email`, or those sent anywhere but `exceptEmail`. They end as expired (`usedAt` stays
 * for links that were followed). Answers how many ended.
 */
export async function expireAccountTokens(
  db: Executor,
  params: {
    userId: string;
    purpose: AccountTokenPurpose;
    now: Date;
    email?: string;
    exceptEmail?: string;
  },
): Promise<number> {
  const conditions = [
    eq(accountTokens.userId, params.userId),
    eq(accountTokens.purpose, params.purpose),
    isNull(accountTokens.usedAt),
    gt(accountTokens.expiresAt, params.now),
  ];
  if (params.email !== undefined) {
    conditions.push(eq(accountTokens.email, params.email));
  }
  if (params.exceptEmail !== undefined) {
    conditions.push(ne(accountTokens.email, params.exceptEmail));
  }
  const ended = await db
    .update(accountTokens)
    .set({ expiresAt: params.now })
    .where(and(...conditions))
    .returning({ id: accountTokens.id });
  return ended.length;
}

/** The link for a token hash while it still works (not used, not expired), or null. */
export async function getLiveAccountToken(
  db: Executor,
  params: { tokenHash: string; purpose: AccountTokenPurpose; now: Date },
): Promise<AccountTokenRow | null> {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, params.tokenHash),
        eq(accountTokens.purpose, params.purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, params.now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Follows a link: marks it used and answers it, in one statement, so that of two requests racing with
 * the same token exactly one gets the row. Null when it is unknown, used, expired or of another purpose.
 */
export async function useAccountToken(
  db: Executor,
  params: { tokenHash: string; purpose: AccountTokenPurpose; now: Date },
): Promise<AccountTokenRow | null> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: params.now })
    .where(
      and(
        eq(accountTokens.tokenHash, params.tokenHash),
        eq(accountTokens.purpose, params.purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, params.now),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * The address a change of email waits on: the newest working verification link the account sent to an
 * address other than its own. Null when no change is pending.
 */
export async function getPendingEmailChange(
  db: Executor,
  params: { userId: string; currentEmail: string; now: Date },
): Promise<{ email: string; expiresAt: Date } | null> {
  const [row] = await db
    .select({ email: accountTokens.email, expiresAt: accountTokens.expiresAt })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.userId, params.userId),
        eq(accountTokens.purpose, 'email_verification'),
        ne(accountTokens.email, params.currentEmail),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, params.now),
      ),
    )
    .orderBy(desc(accountTokens.createdAt))
    .limit(1);
  return row ?? null;
}
