import { messages } from '@bytegate/contracts/messages';
import type { SignInMethod } from '@bytegate/contracts/notifications';
import { SIGN_IN_CHALLENGE_MAX_ATTEMPTS, twoFactorMessages } from '@bytegate/contracts/two-factor';
import { claimSignInChallengeAttempt, getActiveUserById, useSignInChallenge } from '@bytegate/db/queries';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { openSignedInSession, type SignedIn } from './begin-sign-in.ts';
import { hashSessionToken } from './session-tokens.ts';
import type { TwoFactorCheck } from './two-factor/two-factor-check.ts';

export interface CompleteTwoFactorSignInProps {
  /** The token `beginSignIn` answered. */
  challengeToken: string;
  /** An app code or a recovery code. */
  code: string;
  origin: RequestOrigin;
  /** How the session is carried; left out, as the sign-in began. */
  isBrowser?: boolean | undefined;
  deviceToken?: string | undefined;
  twoFactor: TwoFactorCheck;
}

/**
 * The second step of a sign-in with two-factor on. The attempt is counted on the challenge before the
 * code is checked (one conditional UPDATE), so a challenge hears at most 5 codes however many race;
 * wrong codes also count for the account (TwoFactorCheck). A right code uses the challenge once and
 * opens the session exactly as a sign-in without two-factor does.
 */
export async function completeTwoFactorSignIn(
  ctx: ServiceContext,
  props: CompleteTwoFactorSignInProps,
): Promise<SignedIn & { isBrowser: boolean; method: SignInMethod }> {
  const now = new Date();
  const ended = () => new DomainError('INVALID_TWO_FACTOR_CODE', twoFactorMessages.challengeEnded);
  const challenge = await claimSignInChallengeAttempt(ctx.db, {
    tokenHash: hashSessionToken(props.challengeToken),
    now,
    maxAttempts: SIGN_IN_CHALLENGE_MAX_ATTEMPTS,
  });
  if (!challenge) {
    throw ended();
  }
  const user = await getActiveUserById(ctx.db, { userId: challenge.userId });
  if (!user?.totpSecret) {
    throw ended();
  }
  if (user.disabledAt) {
    throw new DomainError('ACCOUNT_DISABLED', messages.accountDisabled);
  }
  await props.twoFactor.verify(ctx.db, { user, code: props.code, now });
  if (!(await useSignInChallenge(ctx.db, { challengeId: challenge.id, now }))) {
    throw ended();
  }
  const isBrowser = props.isBrowser ?? challenge.isBrowser;
  const signedIn = await openSignedInSession(
    ctx,
    { user, method: challenge.method, isBrowser, origin: props.origin, deviceToken: props.deviceToken },
    { isTwoFactor: true },
  );
  return { ...signedIn, isBrowser, method: challenge.method };
}
