import { googleMessages } from '@bytegate/contracts/google';
import type { Executor } from '@bytegate/db';
import { getActiveUserById, type UserRow } from '@bytegate/db/queries';
import { DomainError } from '../domain-error.ts';
import { isPasswordHash, verifyPassword } from './passwords.ts';
import { assertCodeGiven, type TwoFactorCheck } from './two-factor/two-factor-check.ts';

export interface ReauthenticateProps {
  userId: string;
  /** Required of an account that has a password. */
  password?: string | undefined;
  /** An app or recovery code: required while two-factor is on. */
  code?: string | undefined;
  twoFactor: TwoFactorCheck;
  /** The refusal's words for a wrong password ('Current password is incorrect', ...). */
  wrongPasswordMessage: string;
  /**
   * An account without a password (created with Google): `code-only` asks it for the two-factor code
   * alone (turning two-factor off); a message refuses the action (409 CONFLICT) until it sets one.
   */
  withoutPassword: 'code-only' | { refusal: string };
}

/**
 * Asks a signed-in user again who they are before a sensitive action (password change, deletion, a
 * new API key, turning two-factor off): the password, and while two-factor is on a code too. A missing
 * code is refused first (403 TWO_FACTOR_REQUIRED, no password work); the code is used only once the
 * password is right, so a mistyped password never costs a code. Answers the account.
 */
export async function reauthenticate(db: Executor, props: ReauthenticateProps): Promise<UserRow> {
  const user = await getActiveUserById(db, { userId: props.userId });
  if (user && !isPasswordHash(user.passwordHash)) {
    if (props.withoutPassword !== 'code-only') {
      throw new DomainError('CONFLICT', props.withoutPassword.refusal);
    }
    assertCodeGiven(user, props.code);
    await props.twoFactor.requireIfOn(db, { user, code: props.code });
    return user;
  }
  if (user) {
    assertCodeGiven(user, props.code);
  }
  if (user && !props.password) {
    throw new DomainError('VALIDATION_FAILED', googleMessages.passwordRequired);
  }
  if (!user || !(await verifyPassword(user.passwordHash, props.password ?? ''))) {
    throw new DomainError('WRONG_PASSWORD', props.wrongPasswordMessage);
  }
  await props.twoFactor.requireIfOn(db, { user, code: props.code });
  return user;
}
