import { and, desc, eq, lt, notInArray } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { trustedDevices } from '../schema/accounts.ts';

/** The account a device cookie (by its hash) belongs to, or null for an unknown one. */
export async function getTrustedDeviceUserId(
  db: Executor,
  params: { tokenHash: string },
): Promise<string | null> {
  const [row] = await db
    .select({ userId: trustedDevices.userId })
    .from(trustedDevices)
    .where(eq(trustedDevices.tokenHash, params.tokenHash))
    .limit(1);
  return row?.userId ?? null;
}

export async function createTrustedDevice(
  db: Executor,
  params: { userId: string; tokenHash: string },
): Promise<void> {
  await db.insert(trustedDevices).values(params);
}

export async function touchTrustedDevice(
  db: Executor,
  params: { userId: string; tokenHash: string; now: Date },
): Promise<void> {
  await db
    .update(trustedDevices)
    .set({ lastSeenAt: params.now })
    .where(and(eq(trustedDevices.userId, params.userId), eq(trustedDevices.tokenHash, params.tokenHash)));
}

/** Forgets every device of an account (its deletion). */
export async function deleteUserTrustedDevices(db: Executor, params: { userId: string }): Promise<void> {
  await db.delete(trustedDevices).where(eq(trustedDevices.userId, params.userId));
}

/** Forgets devices not seen since `before`, so the table does not grow without bound. */
export async function deleteStaleTrustedDevices(db: Executor, params: { before: Date }): Promise<void> {
  await db.delete(trustedDevices).where(lt(trustedDevices.lastSeenAt, params.before));
}

/** Keeps an account's `keep` most recently seen devices and forgets the rest (a bound per account). */
export async function keepNewestTrustedDevices(
  db: Executor,
  params: { userId: string; keep: number },
): Promise<void> {
  const newest = db
    .select({ id: trustedDevices.id })
    .from(trustedDevices)
    .where(eq(trustedDevices.userId, params.userId))
    .orderBy(desc(trustedDevices.lastSeenAt), desc(trustedDevices.createdAt))
    .limit(params.keep);
  await db
    .delete(trustedDevices)
    .where(and(eq(trustedDevices.userId, params.userId), notInArray(trustedDevices.id, newest)));
}
