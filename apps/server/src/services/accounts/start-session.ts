import type { Executor } from '@bytegate/db';
import { createSession } from '@bytegate/db/queries';
import type { RequestOrigin } from '../context.ts';
import { createSessionToken } from './session-tokens.ts';

/** Opens a session for a user and answers the bearer token (shown once, stored only as a hash). */
export async function startSession(
  db: Executor,
  props: { userId: string; ttlMs: number; origin: RequestOrigin },
): Promise<string> {
  const { token, tokenHash } = createSessionToken();
  await createSession(db, {
    userId: props.userId,
    tokenHash,
    expiresAt: new Date(Date.now() + props.ttlMs),
    ipAddress: props.origin.ipAddress,
    userAgent: props.origin.userAgent?.slice(0, 512) ?? null,
  });
  return token;
}
