import { and, count, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { signInChallenges, twoFactorRecoveryCodes } from '../schema/account-security.ts';
import { users } from '../schema/accounts.ts';
import type { UserRow } from './users.ts';

export type SignInChallengeRow = typeof signInChallenges.$inferSelect;

// Two-factor authentication: the account's TOTP secret (users.totp_*), its recovery codes and the
// sign-ins waiting for a code. Every "use once" below is one conditional UPDATE, so two requests racing
// with the same code or challenge cannot both win, on PGlite as on PostgreSQL.

/** Keeps a new secret waiting for its first code (enrolment), replacing one that waited before. */
export async function setPendingTotpSecret(
  db: Executor,
  params: { userId: string; secret: string },
): Promise<void> {
  await db
    .update(users)
    .set({ totpPendingSecret: params.secret })
    .where(and(eq(users.id, params.userId), isNull(users.deletedAt)));
}

/**
 * Turns two-factor on with the secret that was waiting, if it still is (and 2FA is still off), noting
 * the step of the code that confirmed it as used. Answers the user, or null when it was not waiting.
 */
export async function activatePendingTotpSecret(
  db: Executor,
  params: { userId: string; secret: string; step: number; now: Date },
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({
      totpSecret: params.secret,
      totpPendingSecret: null,
      totpEnabledAt: params.now,
      totpLastStep: params.step,
    })
    .where(
      and(
        eq(users.id, params.userId),
        eq(users.totpPendingSecret, params.secret),
        isNull(users.totpSecret),
        isNull(users.deletedAt),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Takes a TOTP time step as used, atomically: only when it is later than the last one accepted and the
 * secret is still the one the code was checked against. False means a replay (or a code that lost a
 * race to the same or a later one).
 */
export async function claimTotpStep(
  db: Executor,
  params: { userId: string; secret: string; step: number },
): Promise<boolean> {
  const claimed = await db
    .update(users)
    .set({ totpLastStep: params.step })
    .where(
      and(
        eq(users.id, params.userId),
        eq(users.totpSecret, params.secret),
        or(isNull(users.totpLastStep), lt(users.totpLastStep, params.step)),
      ),
    )
    .returning({ id: users.id });
  return claimed.length === 1;
}

/**
 * Turns two-factor off: the secret (and any waiting one) forgotten, the recovery codes and the sign-ins
 * waiting for a code gone. Answers whether it was on.
 */
export async function clearTwoFactor(db: Executor, params: { userId: string }): Promise<boolean> {
  const cleared = await db
    .update(users)
    .set({ totpSecret: null, totpEnabledAt: null, totpPendingSecret: null, totpLastStep: null })
    .where(and(eq(users.id, params.userId), isNotNull(users.totpSecret)))
    .returning({ id: users.id });
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, params.userId));
  await db.delete(signInChallenges).where(eq(signInChallenges.userId, params.userId));
  return cleared.length === 1;
}

/** Replaces every recovery code of an account with new ones (their SHA-256 hashes). */
export async function replaceRecoveryCodes(
  db: Executor,
  params: { userId: string; codeHashes: string[] },
): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, params.userId));
  await db
    .insert(twoFactorRecoveryCodes)
    .values(params.codeHashes.map((codeHash) => ({ userId: params.userId, codeHash })));
}

/** Uses a recovery code once: false when the account has no such unused code. */
export async function useRecoveryCode(
  db: Executor,
  params: { userId: string; codeHash: string; now: Date },
): Promise<boolean> {
  const used = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: params.now })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, params.userId),
        eq(twoFactorRecoveryCodes.codeHash, params.codeHash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return used.length > 0;
}

export async function countUnusedRecoveryCodes(db: Executor, params: { userId: string }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, params.userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export async function createSignInChallenge(
  db: Executor,
  params: {
    userId: string;
    tokenHash: string;
    method: SignInChallengeRow['method'];
    isBrowser: boolean;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(signInChallenges).values(params);
}

/**
 * Counts an attempt at a live challenge before its code is checked, atomically, so that however many
 * requests race, at most `maxAttempts` codes are ever checked for one challenge. Answers the challenge,
 * or null when it is unknown, used, expired or out of attempts.
 */
export async function claimSignInChallengeAttempt(
  db: Executor,
  params: { tokenHash: string; now: Date; maxAttempts: number },
): Promise<SignInChallengeRow | null> {
  const [row] = await db
    .update(signInChallenges)
    .set({ failedAttempts: sql`${signInChallenges.failedAttempts} + 1` })
    .where(
      and(
        eq(signInChallenges.tokenHash, params.tokenHash),
        isNull(signInChallenges.usedAt),
        gt(signInChallenges.expiresAt, params.now),
        lt(signInChallenges.failedAttempts, params.maxAttempts),
      ),
    )
    .returning();
  return row ?? null;
}

/** Marks a challenge used (its code was right); false when another request used it first. */
export async function useSignInChallenge(
  db: Executor,
  params: { challengeId: string; now: Date },
): Promise<boolean> {
  const used = await db
    .update(signInChallenges)
    .set({ usedAt: params.now })
    .where(and(eq(signInChallenges.id, params.challengeId), isNull(signInChallenges.usedAt)))
    .returning({ id: signInChallenges.id });
  return used.length === 1;
}

/** Drops challenges that ended before `before`, so the table does not grow without bound. */
export async function deleteEndedSignInChallenges(db: Executor, params: { before: Date }): Promise<void> {
  await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, params.before));
}
