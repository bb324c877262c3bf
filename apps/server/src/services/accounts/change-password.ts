import { googleMessages } from '@bytegate/contracts/google';
import { messages } from '@bytegate/contracts/messages';
import { revokeUserSessions, updateUserPasswordHash } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { hashPassword } from './passwords.ts';
import { reauthenticate } from './reauthenticate.ts';
import type { TwoFactorCheck } from './two-factor/two-factor-check.ts';

export interface ChangePasswordProps {
  userId: string;
  /** The session making the change stays signed in; every other one is revoked. */
  sessionId: string;
  currentPassword: string;
  newPassword: string;
  /** Required while two-factor authentication is on. */
  code?: string | undefined;
  twoFactor: TwoFactorCheck;
  origin?: RequestOrigin;
}

export async function changePassword(ctx: ServiceContext, props: ChangePasswordProps): Promise<void> {
  // Checked first: refused, it costs no password work and no two-factor code.
  if (props.currentPassword === props.newPassword) {
    throw new DomainError('VALIDATION_FAILED', messages.newPasswordSameAsCurrent);
  }
  const user = await reauthenticate(ctx.db, {
    userId: props.userId,
    password: props.currentPassword,
    code: props.code,
    twoFactor: props.twoFactor,
    wrongPasswordMessage: messages.currentPasswordWrong,
    withoutPassword: { refusal: googleMessages.noPasswordToChange },
  });
  const passwordHash = await hashPassword(props.newPassword);
  await ctx.db.transaction(async (tx) => {
    await updateUserPasswordHash(tx, { userId: user.id, passwordHash });
    await revokeUserSessions(tx, { userId: user.id, now: new Date(), exceptSessionId: props.sessionId });
    await recordActivity(tx, {
      userId: user.id,
      kind: 'password_changed',
      details: {},
      origin: props.origin,
    });
  });
}
