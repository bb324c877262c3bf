import { type RecoveryCodesResponse, twoFactorMessages } from '@bytegate/contracts/two-factor';
import { getActiveUserById } from '@bytegate/db/queries';
import { recordActivity } from '../../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { notify } from '../../notifications/notify.ts';
import { presentTwoFactorStatus } from './present-two-factor.ts';
import { issueRecoveryCodes } from './recovery-codes.ts';
import type { TwoFactorCheck } from './two-factor-check.ts';

/** Ten new recovery codes for a code (app or recovery): the old ones stop working; the customer is told. */
export async function regenerateRecoveryCodes(
  ctx: ServiceContext,
  props: { userId: string; code: string; twoFactor: TwoFactorCheck; origin?: RequestOrigin },
): Promise<RecoveryCodesResponse> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user?.totpSecret) {
    throw new DomainError('CONFLICT', twoFactorMessages.notOn);
  }
  await props.twoFactor.verify(ctx.db, { user, code: props.code });
  return ctx.db.transaction(async (tx) => {
    const recoveryCodes = await issueRecoveryCodes(tx, { userId: user.id });
    await notify(tx, {
      userId: user.id,
      kind: 'two_factor_changed',
      data: { change: 'recovery_codes_regenerated' },
    });
    await recordActivity(tx, {
      userId: user.id,
      kind: 'recovery_codes_regenerated',
      details: {},
      origin: props.origin,
    });
    return { recoveryCodes, twoFactor: await presentTwoFactorStatus(tx, user) };
  });
}
