import { googleMessages } from '@bytegate/contracts/google';
import { messages } from '@bytegate/contracts/messages';
import { type TwoFactorSetupResponse, twoFactorMessages } from '@bytegate/contracts/two-factor';
import { getActiveUserById, setPendingTotpSecret } from '@bytegate/db/queries';
import { renderSVG } from 'uqr';
import type { ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { isPasswordHash, verifyPassword } from '../passwords.ts';
import { createTotpSecret, totpUri } from './code-rules.ts';

/**
 * Starts enrolment after checking the password (an account without one, created with Google, has none to check): a new secret waits (replacing one that waited before)
 * until a code from it confirms it. Answered three ways: the otpauth URI, the same as a QR code (an SVG
 * data URL, which the page's `img-src data:` allows), and the secret to type. Nothing changes for
 * sign-in until it is confirmed.
 */
export async function startTwoFactorSetup(
  ctx: ServiceContext,
  props: { userId: string; password: string | undefined },
): Promise<TwoFactorSetupResponse> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  // An account created with Google that has no password yet starts on its session alone: there is
  // nothing else to ask, and the code from the app still has to confirm the secret.
  if (user && isPasswordHash(user.passwordHash) && !props.password) {
    throw new DomainError('VALIDATION_FAILED', googleMessages.passwordRequired);
  }
  if (
    !user ||
    (isPasswordHash(user.passwordHash) && !(await verifyPassword(user.passwordHash, props.password ?? '')))
  ) {
    throw new DomainError('WRONG_PASSWORD', messages.passwordWrong);
  }
  if (user.totpSecret) {
    throw new DomainError('CONFLICT', twoFactorMessages.alreadyOn);
  }
  const secret = createTotpSecret();
  await setPendingTotpSecret(ctx.db, { userId: user.id, secret });
  const otpauthUri = totpUri({ secret, accountName: user.email });
  const svg = renderSVG(otpauthUri, { ecc: 'M', border: 2 });
  return {
    otpauthUri,
    qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    secret,
  };
}
