import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { idempotentRequests } from '../schema/billing.ts';

export type IdempotentRequestRow = typeof idempotentRequests.$inferSelect;

/** The answer stored for an account's idempotency key, or null (call it under the account's row lock). */
export async function findIdempotentRequest(
  db: Executor,
  params: { userId: string; key: string },
): Promise<IdempotentRequestRow | null> {
  const [row] = await db
    .select()
    .from(idempotentRequests)
    .where(and(eq(idempotentRequests.userId, params.userId), eq(idempotentRequests.key, params.key)))
    .limit(1);
  return row ?? null;
}

export async function saveIdempotentRequest(
  db: Executor,
  params: {
    userId: string;
    key: string;
    requestHash: string;
    statusCode: number;
    response: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(idempotentRequests).values(params);
}

/** Forgets keys older than `before` (a retry comes within minutes; a day is kept). */
export async function deleteIdempotentRequestsBefore(db: Executor, params: { before: Date }): Promise<void> {
  await db.delete(idempotentRequests).where(lt(idempotentRequests.createdAt, params.before));
}
