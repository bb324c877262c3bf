import { EMAIL_VERIFICATION_LINK_TTL_MS } from '@bytegate/contracts/account-links';
import { createAccountToken, expireAccountTokens, type UserRow } from '@bytegate/db/queries';
import { emailVerification } from '../../mail/templates.ts';
import type { MailContext } from '../context.ts';
import { createLinkToken, linkUrl } from './link-tokens.ts';

/**
 * Mails an account a link that proves its address, valid 7 days; earlier links to that address stop
 * working (a pending change of email, sent elsewhere, is left alone). Throws what the mailer throws.
 */
export async function sendEmailVerification(
  ctx: MailContext,
  props: { user: Pick<UserRow, 'id' | 'email' | 'firstName'> },
): Promise<void> {
  const { user } = props;
  const { token, tokenHash } = createLinkToken();
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    await expireAccountTokens(tx, {
      userId: user.id,
      purpose: 'email_verification',
      email: user.email,
      now,
    });
    await createAccountToken(tx, {
      userId: user.id,
      purpose: 'email_verification',
      tokenHash,
      email: user.email,
      expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_LINK_TTL_MS),
    });
  });
  await ctx.mailer.send({
    to: user.email,
    ...emailVerification({
      name: user.firstName,
      link: linkUrl(ctx.config.publicUrl, 'verifyEmail', token),
      validDays: EMAIL_VERIFICATION_LINK_TTL_MS / 86_400_000,
    }),
  });
}
