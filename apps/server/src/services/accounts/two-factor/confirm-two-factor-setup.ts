import { classifyCode, type RecoveryCodesResponse, twoFactorMessages } from '@bytegate/contracts/two-factor';
import { activatePendingTotpSecret, getActiveUserById } from '@bytegate/db/queries';
import { recordActivity } from '../../activity/record-activity.ts';
import type { RequestOrigin, ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { notify } from '../../notifications/notify.ts';
import { matchTotpStep } from './code-rules.ts';
import { presentTwoFactorStatus } from './present-two-factor.ts';
import { issueRecoveryCodes } from './recovery-codes.ts';
import type { TwoFactorCheck } from './two-factor-check.ts';

/**
 * Confirms enrolment with a code from the app, which proves the app holds the secret: two-factor is
 * on from then, the code's step counts as used, ten recovery codes are made (answered this once, stored
 * as SHA-256) and the customer is told, all in one transaction. A wrong code counts with the others.
 */
export async function confirmTwoFactorSetup(
  ctx: ServiceContext,
  props: { userId: string; code: string; twoFactor: TwoFactorCheck; origin?: RequestOrigin },
): Promise<RecoveryCodesResponse> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError('NOT_FOUND', 'No such account');
  }
  if (user.totpSecret) {
    throw new DomainError('CONFLICT', twoFactorMessages.alreadyOn);
  }
  const secret = user.totpPendingSecret;
  if (!secret) {
    throw new DomainError('CONFLICT', twoFactorMessages.noSetup);
  }
  const now = new Date();
  const step = await props.twoFactor.attempt(user.id, async () =>
    classifyCode(props.code) === 'totp' ? matchTotpStep({ secret, code: props.code, now }) : null,
  );
  return ctx.db.transaction(async (tx) => {
    const enabled = await activatePendingTotpSecret(tx, { userId: user.id, secret, step, now });
    if (!enabled) {
      // Another request confirmed it, or a new setup replaced the secret, in between.
      throw new DomainError('CONFLICT', twoFactorMessages.noSetup);
    }
    const recoveryCodes = await issueRecoveryCodes(tx, { userId: user.id });
    await notify(tx, { userId: user.id, kind: 'two_factor_changed', data: { change: 'enabled' } });
    await recordActivity(tx, {
      userId: user.id,
      kind: 'two_factor_enabled',
      details: {},
      origin: props.origin,
    });
    return { recoveryCodes, twoFactor: await presentTwoFactorStatus(tx, enabled) };
  });
}
