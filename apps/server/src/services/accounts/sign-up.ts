import type { AuthResponse } from '@bytegate/contracts/auth';
import { messages } from '@bytegate/contracts/messages';
import { createUser } from '@bytegate/db/queries';
import { sendEmailVerification } from '../account-links/send-email-verification.ts';
import { recordActivity } from '../activity/record-activity.ts';
import { runAfterReply } from '../background-tasks.ts';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { verifyRecaptcha } from '../recaptcha/verify-recaptcha.ts';
import { hashPassword } from './passwords.ts';
import { presentUser } from './present-user.ts';
import { startSession } from './start-session.ts';
import { rememberDevice } from './trusted-devices.ts';

export interface SignUpProps {
  firstName: string;
  lastName: string;
  /** Already trimmed and lower-cased by the request schema. */
  email: string;
  password: string;
  company?: string | undefined;
  recaptchaToken?: string | undefined;
  origin: RequestOrigin;
  /** A browser (cookie session): it is remembered as the account's device. */
  isBrowser: boolean;
}

/**
 * Creates an account and signs it in; the browser it came from is remembered as the account's device.
 * An email that already has an account is a 409. Where EMAIL_VERIFICATION is required, the address is
 * mailed its verification link after the reply (a mail server that fails does not fail the sign-up: the
 * dashboard can send the link again).
 */
export async function signUp(
  ctx: ServiceContext,
  props: SignUpProps,
): Promise<AuthResponse & { deviceToken: string | null }> {
  await verifyRecaptcha({
    config: ctx.config.recaptcha,
    token: props.recaptchaToken,
    action: 'signup',
    remoteIp: props.origin.ipAddress,
    expectedHostname: new URL(ctx.config.publicUrl).hostname,
  });
  const passwordHash = await hashPassword(props.password);
  const signedUp = await ctx.db.transaction(async (tx) => {
    const user = await createUser(tx, {
      email: props.email,
      passwordHash,
      firstName: props.firstName,
      lastName: props.lastName,
      company: props.company ?? null,
    });
    if (!user) {
      throw new DomainError('EMAIL_TAKEN', messages.emailTaken);
    }
    const token = await startSession(tx, {
      userId: user.id,
      ttlMs: ctx.config.sessionTtlMs,
      origin: props.origin,
    });
    await recordActivity(tx, {
      userId: user.id,
      kind: 'account_created',
      details: { method: 'password' },
      origin: props.origin,
    });
    const deviceToken = props.isBrowser
      ? await rememberDevice(tx, { deviceToken: undefined, trustedHash: null, userId: user.id })
      : null;
    return { token, user, deviceToken };
  });
  const { user, ...session } = signedUp;
  const { mailer } = ctx;
  if (ctx.config.emailVerification === 'required' && mailer) {
    await runAfterReply(ctx, 'verification mail', () => sendEmailVerification({ ...ctx, mailer }, { user }));
  }
  return { ...session, user: presentUser(user) };
}
