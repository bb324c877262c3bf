import { SIGN_IN_LINK_TTL_MS } from '@bytegate/contracts/account-links';
import { createAccountToken, expireAccountTokens, getActiveUserByEmail } from '@bytegate/db/queries';
import { signInLink } from '../../../mail/templates.ts';
import { createLinkToken, linkUrl } from '../../account-links/link-tokens.ts';
import { runAfterReply } from '../../background-tasks.ts';
import type { MailContext, RequestOrigin } from '../../context.ts';
import { verifyRecaptcha } from '../../recaptcha/verify-recaptcha.ts';
import type { LoginThrottle } from '../login-throttle.ts';

export interface RequestSignInLinkProps {
  /** Already trimmed and lower-cased by the request schema. */
  email: string;
  recaptchaToken?: string | undefined;
  origin: RequestOrigin;
  throttle: LoginThrottle;
}

/**
 * "Email me a sign-in link" on the sign-in page of an account that many addresses guessed at (audit
 * finding 17): the lock holds every browser the account does not know, its owner's new ones too, so the
 * owner gets in through the mailbox instead. Like "Forgot your password?", the answer is the same, in
 * the same time, whatever the email: the bot check runs first, the lookup and the mail after the reply.
 */
export async function requestSignInLink(ctx: MailContext, props: RequestSignInLinkProps): Promise<void> {
  await verifyRecaptcha({
    config: ctx.config.recaptcha,
    token: props.recaptchaToken,
    action: 'sign_in_link',
    remoteIp: props.origin.ipAddress,
    expectedHostname: new URL(ctx.config.publicUrl).hostname,
  });
  await runAfterReply(ctx, 'sign-in link mail', () =>
    sendSignInLink(ctx, { email: props.email, throttle: props.throttle }),
  );
}

/**
 * Mails the owner of a locked account a link that signs in once, valid 15 minutes (earlier ones stop
 * working), saying what happened: how many wrong passwords, from how many addresses, and how long the
 * lock holds. An account that is not locked, unknown, deleted or disabled gets nothing: the link is a
 * way around the lock, never a sign-in without a password otherwise. Answers whether one was sent.
 */
export async function sendSignInLink(
  ctx: MailContext,
  props: { email: string; throttle: LoginThrottle },
): Promise<boolean> {
  const user = await getActiveUserByEmail(ctx.db, { email: props.email });
  const lock = user && !user.disabledAt ? await props.throttle.accountLock(props.email) : null;
  if (!user || !lock) {
    return false;
  }
  const { token, tokenHash } = createLinkToken();
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    await expireAccountTokens(tx, { userId: user.id, purpose: 'sign_in_link', now });
    await createAccountToken(tx, {
      userId: user.id,
      purpose: 'sign_in_link',
      tokenHash,
      email: user.email,
      expiresAt: new Date(now.getTime() + SIGN_IN_LINK_TTL_MS),
    });
  });
  await ctx.mailer.send({
    to: user.email,
    ...signInLink({
      name: user.firstName,
      link: linkUrl(ctx.config.publicUrl, 'signInLink', token),
      validMinutes: SIGN_IN_LINK_TTL_MS / 60_000,
      failures: lock.failures,
      addresses: lock.sources,
      lockedMinutes: Math.max(1, Math.ceil(lock.lockedForMs / 60_000)),
    }),
  });
  return true;
}
