import { messages } from '@bytegate/contracts/messages';
import {
  cancelUserThreadRequests,
  deactivateUserPlans,
  deleteUserTrustedDevices,
  eraseUser,
  getActiveUserById,
  revokeAllApiKeys,
  revokeUserSessions,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { verifyPassword } from './passwords.ts';

/**
 * Deletes an account after checking its password: every session is revoked and the personal fields
 * are erased, its plans stop working and its pending thread requests are withdrawn. The row itself stays, so orders and the ledger keep their owner.
 */
export async function deleteAccount(
  ctx: ServiceContext,
  props: { userId: string; password: string },
): Promise<void> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user || !(await verifyPassword(user.passwordHash, props.password))) {
    throw new DomainError('WRONG_PASSWORD', messages.passwordWrong);
  }
  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    await revokeUserSessions(tx, { userId: user.id, now });
    await revokeAllApiKeys(tx, { userId: user.id, now });
    await deleteUserTrustedDevices(tx, { userId: user.id });
    await deactivateUserPlans(tx, { userId: user.id });
    await cancelUserThreadRequests(tx, { userId: user.id, now });
    await eraseUser(tx, { userId: user.id, now });
  });
}
