import type { AuthResponse } from '@bytegate/contracts/auth';
import { messages, waitMessages } from '@bytegate/contracts/messages';
import { getActiveUserByEmail } from '@bytegate/db/queries';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { verifyRecaptcha } from '../recaptcha/verify-recaptcha.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { presentUser } from './present-user.ts';
import { startSession } from './start-session.ts';
import { rememberDevice, trustedDeviceOf } from './trusted-devices.ts';

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
 * failures made elsewhere. A success answers the session's token and the browser's device token.
 */
export async function logIn(
  ctx: ServiceContext,
  props: LogInProps,
): Promise<AuthResponse & { deviceToken: string | null }> {
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
    throw new DomainError('RATE_LIMITED', waitMessages.tooManyLoginAttempts(waitMs / 1000), undefined, {
      retryAfterSeconds: waitMs / 1000,
    });
  }
  const isValid = user
    ? await verifyPassword(user.passwordHash, props.password)
    : await verifyAgainstDummy(props.password);
  if (!user || !isValid) {
    await props.throttle.recordFailure(attempt);
    throw new DomainError('INVALID_CREDENTIALS', messages.invalidCredentials);
  }
  await props.throttle.recordSuccess(attempt);
  // Told only to whoever knows the password, so the refusal reveals nothing to a guesser.
  if (user.disabledAt) {
    throw new DomainError('ACCOUNT_DISABLED', messages.accountDisabled);
  }
  const token = await startSession(ctx.db, {
    userId: user.id,
    ttlMs: ctx.config.sessionTtlMs,
    origin: props.origin,
  });
  const deviceToken = props.isBrowser
    ? await rememberDevice(ctx.db, {
        deviceToken: props.deviceToken,
        trustedHash: attempt.trustedDevice,
        userId: user.id,
      })
    : null;
  return { token, user: presentUser(user), deviceToken };
}
