import { messages } from '@bytegate/contracts/messages';
import { type TwoFactorStatus, twoFactorMessages } from '@bytegate/contracts/two-factor';
import { clearTwoFactor, getActiveUserById } from '@bytegate/db/queries';
import { recordActivity } from '../../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { notify } from '../../notifications/notify.ts';
import { reauthenticate } from '../reauthenticate.ts';
import type { TwoFactorCheck } from './two-factor-check.ts';

/**
 * Turns two-factor off with the password (an account without one: the code alone) and a code: the secret, the recovery codes and any sign-in
 * waiting for a code are gone, and the customer is told, in one transaction.
 */
export async function disableTwoFactor(
  ctx: ServiceContext,
  props: {
    userId: string;
    password: string | undefined;
    code: string | undefined;
    twoFactor: TwoFactorCheck;
    origin?: RequestOrigin;
  },
): Promise<TwoFactorStatus> {
  const found = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!found?.totpSecret) {
    throw new DomainError('CONFLICT', twoFactorMessages.notOn);
  }
  const user = await reauthenticate(ctx.db, {
    userId: props.userId,
    password: props.password,
    code: props.code,
    twoFactor: props.twoFactor,
    wrongPasswordMessage: messages.passwordWrong,
    // Created with Google and no password set: the code alone.
    withoutPassword: 'code-only',
  });
  await ctx.db.transaction(async (tx) => {
    if (await clearTwoFactor(tx, { userId: user.id })) {
      await notify(tx, { userId: user.id, kind: 'two_factor_changed', data: { change: 'disabled' } });
      await recordActivity(tx, {
        userId: user.id,
        kind: 'two_factor_disabled',
        details: {},
        origin: props.origin,
      });
    }
  });
  return { enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
}
