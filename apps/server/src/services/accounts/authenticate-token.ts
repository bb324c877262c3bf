import { getLiveSessionByTokenHash, type SessionRow, touchSession, type UserRow } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { hashSessionToken } from './session-tokens.ts';

// last_used_at is informational; writing it at most once a minute keeps reads read-only.
const TOUCH_INTERVAL_MS = 60_000;

/** The live session and user behind a bearer token, or null. */
export async function authenticateToken(
  ctx: ServiceContext,
  token: string,
): Promise<{ session: SessionRow; user: UserRow } | null> {
  const now = new Date();
  const found = await getLiveSessionByTokenHash(ctx.db, { tokenHash: hashSessionToken(token), now });
  if (found && now.getTime() - found.session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await touchSession(ctx.db, { sessionId: found.session.id, now });
  }
  return found;
}
