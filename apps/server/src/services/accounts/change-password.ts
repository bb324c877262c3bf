import { messages } from '@bytegate/contracts/messages';
import { getActiveUserById, revokeUserSessions, updateUserPasswordHash } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export interface ChangePasswordProps {
  userId: string;
  /** The session making the change stays signed in; every other one is revoked. */
  sessionId: string;
  currentPassword: string;
  newPassword: string;
}

export async function changePassword(ctx: ServiceContext, props: ChangePasswordProps): Promise<void> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user || !(await verifyPassword(user.passwordHash, props.currentPassword))) {
    throw new DomainError('WRONG_PASSWORD', messages.currentPasswordWrong);
  }
  if (props.currentPassword === props.newPassword) {
    throw new DomainError('VALIDATION_FAILED', messages.newPasswordSameAsCurrent);
  }
  const passwordHash = await hashPassword(props.newPassword);
  await ctx.db.transaction(async (tx) => {
    await updateUserPasswordHash(tx, { userId: user.id, passwordHash });
    await revokeUserSessions(tx, { userId: user.id, now: new Date(), exceptSessionId: props.sessionId });
  });
}
