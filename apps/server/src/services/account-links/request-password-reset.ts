import { PASSWORD_RESET_LINK_TTL_MS } from '@bytegate/contracts/account-links';
import { createAccountToken, expireAccountTokens, getActiveUserByEmail } from '@bytegate/db/queries';
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
  const { token, tokenHash } = createLinkToken();
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    await expireAccountTokens(tx, { userId: user.id, purpose: 'password_reset', now });
    await createAccountToken(tx, {
      userId: user.id,
      purpose: 'password_reset',
      tokenHash,
      email: user.email,
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_LINK_TTL_MS),
    });
  });
  await ctx.mailer.send({
    to: user.email,
    ...passwordReset({
      name: user.firstName,
      link: linkUrl(ctx.config.publicUrl, 'resetPassword', token),
      validMinutes: PASSWORD_RESET_LINK_TTL_MS / 60_000,
    }),
  });
  return true;
}
