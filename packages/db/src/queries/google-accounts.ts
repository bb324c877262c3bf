import { and, eq, gt, isNull, lt, not, or, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { oidcFlows } from '../schema/account-security.ts';
import { users } from '../schema/accounts.ts';
import type { UserRow } from './users.ts';

/** What every password hash starts with; anything else (`!`) is no password. */
const ARGON2_PREFIX = '$argon2%';

export type OidcFlowRow = typeof oidcFlows.$inferSelect;
export type NewOidcFlow = typeof oidcFlows.$inferInsert;

// Sign-in with Google (OpenID Connect): the authorizations under way (`oidc_flows`, their `state` stored
// as SHA-256, used once) and the Google account linked to a user (`users.google_subject`, unique). Each
// "once" below is one conditional UPDATE, so two requests racing with the same state cannot both win.

export async function createOidcFlow(db: Executor, params: NewOidcFlow): Promise<void> {
  await db.insert(oidcFlows).values(params);
}

/**
 * Takes an authorization under way by the hash of its `state`, once: only while unused and unexpired.
 * Answers it, or null (unknown, used, or expired: the three look alike to whoever holds the state).
 */
export async function consumeOidcFlow(
  db: Executor,
  params: { stateHash: string; now: Date },
): Promise<OidcFlowRow | null> {
  const [row] = await db
    .update(oidcFlows)
    .set({ usedAt: params.now })
    .where(
      and(
        eq(oidcFlows.stateHash, params.stateHash),
        isNull(oidcFlows.usedAt),
        gt(oidcFlows.expiresAt, params.now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Deletes authorizations that expired before `before` (used or not). */
export async function deleteEndedOidcFlows(db: Executor, params: { before: Date }): Promise<void> {
  await db.delete(oidcFlows).where(lt(oidcFlows.expiresAt, params.before));
}

/** The active (not deleted) account a Google account (`sub`) is linked to. */
export async function getActiveUserByGoogleSubject(
  db: Executor,
  params: { googleSubject: string },
): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.googleSubject, params.googleSubject), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * Creates an account from a Google sign-in: no password (`!`), its email verified by Google, Google
 * linked. Answers null when the email or the Google account already belongs to an account (a race).
 */
export async function createGoogleUser(
  db: Executor,
  params: {
    email: string;
    firstName: string;
    lastName: string;
    googleSubject: string;
    googleEmail: string;
    now: Date;
  },
): Promise<UserRow | null> {
  const [row] = await db
    .insert(users)
    .values({
      email: params.email,
      passwordHash: '!',
      firstName: params.firstName,
      lastName: params.lastName,
      emailVerifiedAt: params.now,
      googleSubject: params.googleSubject,
      googleEmail: params.googleEmail,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/**
 * Links a Google account to an account that has none linked, or refreshes the email of the one it has.
 * Answers the account, or null when it has another Google account linked, or the Google account is
 * linked to another account (the unique `google_subject`; a race lands here too).
 */
export async function linkGoogleAccount(
  db: Executor,
  params: { userId: string; googleSubject: string; googleEmail: string },
): Promise<UserRow | null> {
  const taken = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.googleSubject, params.googleSubject), not(eq(users.id, params.userId))))
    .limit(1);
  if (taken.length > 0) {
    return null;
  }
  try {
    const [row] = await db
      .update(users)
      .set({ googleSubject: params.googleSubject, googleEmail: params.googleEmail })
      .where(
        and(
          eq(users.id, params.userId),
          isNull(users.deletedAt),
          or(isNull(users.googleSubject), eq(users.googleSubject, params.googleSubject)),
        ),
      )
      .returning();
    return row ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) {
      return null;
    }
    throw error;
  }
}

/**
 * Unlinks Google from an account that keeps a password (an argon2 hash) to sign in with. Answers
 * whether it did: false when the account has no password (Google is then its only way in).
 */
export async function unlinkGoogleAccount(db: Executor, params: { userId: string }): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ googleSubject: null, googleEmail: null })
    .where(
      and(
        eq(users.id, params.userId),
        isNull(users.deletedAt),
        sql`${users.passwordHash} like ${ARGON2_PREFIX}`,
      ),
    )
    .returning({ id: users.id });
  return rows.length === 1;
}

/**
 * Sets the first password of an account that has none (created with Google): answers false when it
 * has one already (a race with another request, or it never lacked one).
 */
export async function setFirstPasswordHash(
  db: Executor,
  params: { userId: string; passwordHash: string },
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ passwordHash: params.passwordHash })
    .where(
      and(
        eq(users.id, params.userId),
        isNull(users.deletedAt),
        sql`${users.passwordHash} not like ${ARGON2_PREFIX}`,
      ),
    )
    .returning({ id: users.id });
  return rows.length === 1;
}

/** PostgreSQL's unique_violation (23505), as node-postgres and PGlite report it (possibly wrapped by Drizzle). */
function isUniqueViolation(error: unknown): boolean {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === '23505') {
      return true;
    }
  }
  return false;
}
