import { googleMessages } from '@bytegate/contracts/google';
import { getActiveUserById, setFirstPasswordHash } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { hashPassword, isPasswordHash } from './passwords.ts';
import type { TwoFactorCheck } from './two-factor/two-factor-check.ts';

export interface SetPasswordProps {
  userId: string;
  newPassword: string;
  /** Required while two-factor authentication is on. */
  code?: string | undefined;
  twoFactor: TwoFactorCheck;
  origin?: RequestOrigin;
}

/**
 * Sets the first password of an account created with Google (no password yet), with the rules of
 * sign-up (the request schema) and, while two-factor is on, a code. An account with a password is
 * refused (409 CONFLICT): it changes it with the current one. Sessions stay signed in: nothing the
 * account had is taken away, a way in is added.
 */
export async function setPassword(ctx: ServiceContext, props: SetPasswordProps): Promise<void> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user || isPasswordHash(user.passwordHash)) {
    throw new DomainError('CONFLICT', googleMessages.alreadyHasPassword);
  }
  await props.twoFactor.requireIfOn(ctx.db, { user, code: props.code });
  const passwordHash = await hashPassword(props.newPassword);
  await ctx.db.transaction(async (tx) => {
    if (!(await setFirstPasswordHash(tx, { userId: user.id, passwordHash }))) {
      throw new DomainError('CONFLICT', googleMessages.alreadyHasPassword);
    }
    await recordActivity(tx, { userId: user.id, kind: 'password_set', details: {}, origin: props.origin });
  });
}
