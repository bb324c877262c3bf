import type { User } from '@bytegate/contracts/auth';
import { messages } from '@bytegate/contracts/messages';
import type { SignInMethod } from '@bytegate/contracts/notifications';
import { SIGN_IN_CHALLENGE_TTL_SECONDS, type TwoFactorChallenge } from '@bytegate/contracts/two-factor';
import { createSignInChallenge, type UserRow } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { presentUser } from './present-user.ts';
import { createSessionToken } from './session-tokens.ts';
import { startSession } from './start-session.ts';
import { rememberDevice, trustedDeviceOf } from './trusted-devices.ts';

/** A finished sign-in: the session's bearer token (the route may put it in a cookie) and the browser's device token. */
export interface SignedIn {
  token: string;
  user: User;
  /** The device cookie to set: a browser sign-in's, null otherwise. */
  deviceToken: string | null;
}

/** What a first factor leads to: a session, or (two-factor on) a challenge waiting for a code. */
export type SignInOutcome = ({ kind: 'session' } & SignedIn) | ({ kind: 'challenge' } & TwoFactorChallenge);

export interface BeginSignInProps {
  /** The account whose first factor just passed (its password, or Google's ID token). */
  user: UserRow;
  method: SignInMethod;
  /** A browser (cookie session): it gets a device cookie, and brings it back if it has one. */
  isBrowser: boolean;
  origin: RequestOrigin;
  /** The browser's device cookie, if it sent one. */
  deviceToken?: string | undefined;
}

/**
 * The one decision after a first factor, for every way of signing in: a disabled account is refused
 * (told only to whoever passed the first factor); an account with two-factor on gets a sign-in
 * challenge (a one-time token valid 5 minutes, for 5 codes, stored as its SHA-256) and no session yet;
 * any other gets its session at once.
 */
export async function beginSignIn(ctx: ServiceContext, props: BeginSignInProps): Promise<SignInOutcome> {
  if (props.user.disabledAt) {
    throw new DomainError('ACCOUNT_DISABLED', messages.accountDisabled);
  }
  if (props.user.totpSecret) {
    const { token, tokenHash } = createSessionToken();
    await createSignInChallenge(ctx.db, {
      userId: props.user.id,
      tokenHash,
      method: props.method,
      isBrowser: props.isBrowser,
      expiresAt: new Date(Date.now() + SIGN_IN_CHALLENGE_TTL_SECONDS * 1000),
    });
    return {
      kind: 'challenge',
      twoFactorRequired: true,
      challengeToken: token,
      expiresInSeconds: SIGN_IN_CHALLENGE_TTL_SECONDS,
    };
  }
  return { kind: 'session', ...(await openSignedInSession(ctx, props)) };
}

/**
 * Opens the session of a sign-in whose every factor passed: the session (a sign-in from a new address
 * is told to the customer, with its method; every sign-in goes to the activity feed with its address
 * and browser) and, for a browser, its device cookie, kept when it is already this account's, else a
 * new one. `isTwoFactor`: a code was the second factor.
 */
export async function openSignedInSession(
  ctx: ServiceContext,
  props: BeginSignInProps,
  options: { isTwoFactor?: boolean } = {},
): Promise<SignedIn> {
  const token = await startSession(ctx.db, {
    userId: props.user.id,
    ttlMs: ctx.config.sessionTtlMs,
    origin: props.origin,
    method: props.method,
  });
  await recordActivity(ctx.db, {
    userId: props.user.id,
    kind: 'signed_in',
    details: { method: props.method, isTwoFactor: options.isTwoFactor === true },
    origin: props.origin,
  });
  const deviceToken = props.isBrowser
    ? await rememberDevice(ctx.db, {
        deviceToken: props.deviceToken,
        trustedHash: await trustedDeviceOf(ctx.db, { deviceToken: props.deviceToken, userId: props.user.id }),
        userId: props.user.id,
      })
    : null;
  return { token, user: presentUser(props.user), deviceToken };
}
