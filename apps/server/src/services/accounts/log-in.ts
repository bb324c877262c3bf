import { messages, waitMessages } from '@bytegate/contracts/messages';
import { getActiveUserByEmail } from '@bytegate/db/queries';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { verifyRecaptcha } from '../recaptcha/verify-recaptcha.ts';
import { beginSignIn, type SignInOutcome } from './begin-sign-in.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { isPasswordHash, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { trustedDeviceOf } from './trusted-devices.ts';

export interface LogInProps {
  email: string;
  password: string;
  recaptchaToken?: string | undefined;
  origin: RequestOrigin;
  /** A browser (cookie session): it gets a device cookie, and brings it back if it has one. */
  isBrowser: boolean;
  deviceToken?: string | undefined;
  throttle: LoginThrottle;
}

/**
 * Signs a user in. A wrong email and a wrong password get the same answer, in the same time. Failed
 * attempts (after the bot check) are counted by the throttle, which may refuse the next ones for a
 * while, saying how long; a browser that signed in to the account before is never held back by
 * failures made elsewhere, and the owner of an account locked by them is told to ask for a sign-in link. The right password goes on as `beginSignIn` decides: the session's token and
 * the browser's device token, or (two-factor on) a challenge waiting for a code.
 */
export async function logIn(ctx: ServiceContext, props: LogInProps): Promise<SignInOutcome> {
  await verifyRecaptcha({
    config: ctx.config.recaptcha,
    token: props.recaptchaToken,
    action: 'login',
    remoteIp: props.origin.ipAddress,
    expectedHostname: new URL(ctx.config.publicUrl).hostname,
  });
  const user = await getActiveUserByEmail(ctx.db, { email: props.email });
  const attempt = {
    email: props.email,
    address: props.origin.ipAddress ?? 'unknown',
    trustedDevice: await trustedDeviceOf(ctx.db, { deviceToken: props.deviceToken, userId: user?.id }),
  };
  const waitMs = await props.throttle.waitMs(attempt);
  if (waitMs > 0) {
    // Held by the account's own lock (many addresses guessing it): its owner is told the way in that
    // needs the mailbox, a one-time sign-in link. Said for any email alike: the lock is per email typed.
    const isAccountLocked =
      !attempt.trustedDevice && (await props.throttle.accountLock(attempt.email)) !== null;
    throw new DomainError(
      isAccountLocked ? 'ACCOUNT_LOCKED' : 'RATE_LIMITED',
      (isAccountLocked ? waitMessages.accountLocked : waitMessages.tooManyLoginAttempts)(waitMs / 1000),
      undefined,
      { retryAfterSeconds: waitMs / 1000 },
    );
  }
  // An account without a password (created with Google) costs the same time as a wrong one.
  const isValid =
    user && isPasswordHash(user.passwordHash)
      ? await verifyPassword(user.passwordHash, props.password)
      : await verifyAgainstDummy(props.password);
  if (!user || !isValid) {
    await props.throttle.recordFailure(attempt);
    throw new DomainError('INVALID_CREDENTIALS', messages.invalidCredentials);
  }
  await props.throttle.recordSuccess(attempt);
  return beginSignIn(ctx, {
    user,
    method: 'password',
    isBrowser: props.isBrowser,
    origin: props.origin,
    deviceToken: props.deviceToken,
  });
}
