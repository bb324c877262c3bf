import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { apiKeys, users } from '../schema/accounts.ts';
import type { UserRow } from './users.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ApiKeyScope = ApiKeyRow['scopes'][number];

/** How many live keys one account may hold (a bounded list, and a bounded cost of a leaked account). */
export const MAX_API_KEYS_PER_USER = 25;

export async function createApiKey(
  db: Executor,
  params: {
    userId: string;
    name: string;
    prefix: string;
    secretHash: string;
    scopes: ApiKeyScope[];
    expiresAt: Date | null;
  },
): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(params).returning();
  if (!row) {
    throw new Error('api key insert returned no row');
  }
  return row;
}

/** An account's keys not revoked, newest first (expired ones included: the list says so). */
export async function listApiKeys(db: Executor, params: { userId: string }): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, params.userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt))
    .limit(MAX_API_KEYS_PER_USER);
}

export async function countApiKeys(db: Executor, params: { userId: string }): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, params.userId), isNull(apiKeys.revokedAt)));
  return row?.count ?? 0;
}

/** Revokes one of the account's keys, answering its name; null when it has no such live key. */
export async function revokeApiKey(
  db: Executor,
  params: { userId: string; keyId: string; now: Date },
): Promise<{ name: string } | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: params.now })
    .where(and(eq(apiKeys.id, params.keyId), eq(apiKeys.userId, params.userId), isNull(apiKeys.revokedAt)))
    .returning({ name: apiKeys.name });
  return row ?? null;
}

/** The live key for a secret's hash with its (not deleted, not disabled) owner, or null. */
export async function getLiveApiKeyBySecretHash(
  db: Executor,
  params: { secretHash: string; now: Date },
): Promise<{ key: ApiKeyRow; user: UserRow } | null> {
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(
      and(
        eq(apiKeys.secretHash, params.secretHash),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, params.now)),
        isNull(users.deletedAt),
        isNull(users.disabledAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Notes a key's use, at most once a minute per key (no write per request). */
export async function touchApiKey(
  db: Executor,
  params: { keyId: string; now: Date; ipAddress: string | null },
): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: params.now, lastUsedIp: params.ipAddress })
    .where(
      and(
        eq(apiKeys.id, params.keyId),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(params.now.getTime() - 60_000))),
      ),
    );
}

/**
 * Revokes every key of an account (account deleted, password reset, change of email); answers how
 * many were live.
 */
export async function revokeAllApiKeys(db: Executor, params: { userId: string; now: Date }): Promise<number> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: params.now })
    .where(and(eq(apiKeys.userId, params.userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return revoked.length;
}
