import type { AuthResponse } from '@bytegate/contracts/auth';
import { messages } from '@bytegate/contracts/messages';
import { getActiveUserByEmail } from '@bytegate/db/queries';
import { AppError } from '../../http/app-error.ts';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { verifyRecaptcha } from '../recaptcha/verify-recaptcha.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { presentUser } from './present-user.ts';
import { startSession } from './start-session.ts';

export interface LogInProps {
  email: string;
  password: string;
  recaptchaToken?: string | undefined;
  origin: RequestOrigin;
}

/** Signs a user in. A wrong email and a wrong password get the same answer, in the same time. */
export async function logIn(ctx: ServiceContext, props: LogInProps): Promise<AuthResponse> {
  await verifyRecaptcha({
    config: ctx.config.recaptcha,
    token: props.recaptchaToken,
    action: 'login',
    remoteIp: props.origin.ipAddress,
    expectedHostname: new URL(ctx.config.publicUrl).hostname,
  });
  const user = await getActiveUserByEmail(ctx.db, { email: props.email });
  const isValid = user
    ? await verifyPassword(user.passwordHash, props.password)
    : await verifyAgainstDummy(props.password);
  if (!user || !isValid) {
    throw new AppError('INVALID_CREDENTIALS', messages.invalidCredentials);
  }
  const token = await startSession(ctx.db, {
    userId: user.id,
    ttlMs: ctx.config.sessionTtlMs,
    origin: props.origin,
  });
  return { token, user: presentUser(user) };
}
