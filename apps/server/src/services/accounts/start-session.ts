import type { SignInMethod } from '@bytegate/contracts/notifications';
import type { Executor } from '@bytegate/db';
import { createSession, getSignInHistory } from '@bytegate/db/queries';
import type { RequestOrigin } from '../context.ts';
import { notify } from '../notifications/notify.ts';
import { createSessionToken } from './session-tokens.ts';

/**
 * Opens a session for a user and answers the bearer token (shown once, stored only as a hash). A
 * sign-in from an address the account never signed in from before (when it had signed in before at
 * all) is told to the customer as `new_sign_in`.
 */
export async function startSession(
  db: Executor,
  props: { userId: string; ttlMs: number; origin: RequestOrigin; method?: SignInMethod },
): Promise<string> {
  const { token, tokenHash } = createSessionToken();
  const session = await createSession(db, {
    userId: props.userId,
    tokenHash,
    expiresAt: new Date(Date.now() + props.ttlMs),
    ipAddress: props.origin.ipAddress,
    userAgent: props.origin.userAgent?.slice(0, 512) ?? null,
  });
  const { ipAddress } = props.origin;
  if (ipAddress) {
    const history = await getSignInHistory(db, {
      userId: props.userId,
      ipAddress,
      exceptSessionId: session.id,
    });
    if (history.hasEarlier && !history.hasFromAddress) {
      await notify(db, {
        userId: props.userId,
        kind: 'new_sign_in',
        data: {
          ip_address: ipAddress,
          user_agent: session.userAgent,
          method: props.method ?? 'password',
        },
      });
    }
  }
  return token;
}
