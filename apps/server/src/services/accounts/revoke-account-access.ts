import type { Executor } from '@bytegate/db';
import { revokeAllApiKeys, revokeUserSessions } from '@bytegate/db/queries';

/** What a revocation ended: sessions (dashboard and bearer) and API keys that were live. */
export interface RevokedAccess {
  revokedSessions: number;
  revokedApiKeys: number;
}

/**
 * Ends every way into an account that someone other than its owner may hold: every session but
 * `exceptSessionId` (the owner's own, when it is known) and every API key. A password reset and a
 * change of email call it in their transaction: whoever held the account before the mailbox proved its
 * owner (a squatter who signed up with someone else's address, or a thief with the old password) loses
 * it at once. Every request checks its session or key against the database, so the next one is refused.
 * Proxy credentials are not touched: they carry traffic, not the account.
 */
export async function revokeAccountAccess(
  tx: Executor,
  params: { userId: string; now: Date; exceptSessionId?: string | undefined },
): Promise<RevokedAccess> {
  const revokedSessions = await revokeUserSessions(tx, {
    userId: params.userId,
    now: params.now,
    ...(params.exceptSessionId ? { exceptSessionId: params.exceptSessionId } : {}),
  });
  const revokedApiKeys = await revokeAllApiKeys(tx, { userId: params.userId, now: params.now });
  return { revokedSessions, revokedApiKeys };
}
