import { PASSWORD_RESET_LINK_TTL_MS } from '@bytegate/contracts/account-links';
import type { Transaction } from '@bytegate/db';
import {
  createAccountToken,
  expireAccountTokens,
  getActiveUserByEmail,
  type UserRow,
} from '@bytegate/db/queries';
import { passwordReset } from '../../mail/templates.ts';
import { runAfterReply } from '../background-tasks.ts';
import type { MailContext, RequestOrigin } from '../context.ts';
import { verifyRecaptcha } from '../recaptcha/verify-recaptcha.ts';
import { createLinkToken, linkUrl } from './link-tokens.ts';

export interface RequestPasswordResetProps {
  /** Already trimmed and lower-cased by the request schema. */
  email: string;
  recaptchaToken?: string | undefined;
  origin: RequestOrigin;
}

/**
 * "Forgot your password?": the answer is the same, in the same time, whatever the email. The bot check
 * runs first (it says nothing of the account); the lookup, the link and its mail run after the reply,
 * so neither a database row nor an SMTP round trip shows in the answer's time, and a mail server that
 * fails is logged rather than told.
 */
export async function requestPasswordReset(
  ctx: MailContext,
  props: RequestPasswordResetProps,
): Promise<void> {
  await verifyRecaptcha({
    config: ctx.config.recaptcha,
    token: props.recaptchaToken,
    action: 'password_reset',
    remoteIp: props.origin.ipAddress,
    expectedHostname: new URL(ctx.config.publicUrl).hostname,
  });
  await runAfterReply(ctx, 'password reset mail', () => sendPasswordResetLink(ctx, { email: props.email }));
}

/**
 * Mails an account a link to set a new password, valid 30 minutes and once; every earlier link of the
 * account stops working. An unknown, deleted or disabled account gets nothing. Answers whether a link
 * was sent.
 */
export async function sendPasswordResetLink(ctx: MailContext, props: { email: string }): Promise<boolean> {
  const user = await getActiveUserByEmail(ctx.db, { email: props.email });
  if (!user || user.disabledAt) {
    return false;
  }
  const token = await ctx.db.transaction((tx) => issuePasswordResetToken(tx, { user, now: new Date() }));
  await mailPasswordResetLink(ctx, { user, token });
  return true;
}

/** A new reset token for the account (its SHA-256 stored); every earlier one stops working. */
export async function issuePasswordResetToken(
  tx: Transaction,
  props: { user: Pick<UserRow, 'id' | 'email'>; now: Date },
): Promise<string> {
  const { token, tokenHash } = createLinkToken();
  await expireAccountTokens(tx, { userId: props.user.id, purpose: 'password_reset', now: props.now });
  await createAccountToken(tx, {
    userId: props.user.id,
    purpose: 'password_reset',
    tokenHash,
    email: props.user.email,
    expiresAt: new Date(props.now.getTime() + PASSWORD_RESET_LINK_TTL_MS),
  });
  return token;
}

/** Mails the link of a token `issuePasswordResetToken` made to the account's address, and nowhere else. */
export async function mailPasswordResetLink(
  ctx: MailContext,
  props: { user: Pick<UserRow, 'email' | 'firstName'>; token: string },
): Promise<void> {
  await ctx.mailer.send({
    to: props.user.email,
    ...passwordReset({
      name: props.user.firstName,
      link: linkUrl(ctx.config.publicUrl, 'resetPassword', props.token),
      validMinutes: PASSWORD_RESET_LINK_TTL_MS / 60_000,
    }),
  });
}
