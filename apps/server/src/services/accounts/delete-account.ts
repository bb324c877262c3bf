import { googleMessages } from '@bytegate/contracts/google';
import { messages } from '@bytegate/contracts/messages';
import {
  cancelUserThreadRequests,
  clearTwoFactor,
  deactivateUserPlans,
  deleteUserActivity,
  deleteUserTrustedDevices,
  eraseUser,
  revokeAllApiKeys,
  revokeUserSessions,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { reauthenticate } from './reauthenticate.ts';
import type { TwoFactorCheck } from './two-factor/two-factor-check.ts';

/**
 * Deletes an account after checking its password (and its two-factor code while that is on): every
 * session is revoked and the personal fields are erased (two-factor and the activity feed with them), its plans stop working and its pending thread requests are withdrawn. The row itself stays, so orders and the ledger keep their owner.
 */
export async function deleteAccount(
  ctx: ServiceContext,
  props: { userId: string; password: string; code?: string | undefined; twoFactor: TwoFactorCheck },
): Promise<void> {
  const user = await reauthenticate(ctx.db, {
    ...props,
    wrongPasswordMessage: messages.passwordWrong,
    withoutPassword: { refusal: googleMessages.setPasswordBeforeDeleting },
  });
  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    await revokeUserSessions(tx, { userId: user.id, now });
    await revokeAllApiKeys(tx, { userId: user.id, now });
    await deleteUserTrustedDevices(tx, { userId: user.id });
    await deactivateUserPlans(tx, { userId: user.id });
    await cancelUserThreadRequests(tx, { userId: user.id, now });
    await clearTwoFactor(tx, { userId: user.id });
    await eraseUser(tx, { userId: user.id, now });
    // Its activity feed held addresses, browsers and emails: erased with the rest.
    await deleteUserActivity(tx, { userId: user.id });
  });
}
