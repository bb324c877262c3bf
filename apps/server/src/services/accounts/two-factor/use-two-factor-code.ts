import { classifyCode } from '@bytegate/contracts/two-factor';
import type { Executor } from '@bytegate/db';
import { claimTotpStep, type UserRow, useRecoveryCode } from '@bytegate/db/queries';
import { hashRecoveryCode, isStepUnused, matchTotpStep } from './code-rules.ts';

/** Which kind of code was used. */
export type UsedCode = 'totp' | 'recovery';

/**
 * Uses a code of an account with two-factor on, once. An app code must match a time step within one of
 * now and later than the last step accepted; that step is then claimed by one conditional UPDATE, so
 * the same code sent twice, even at the same instant, is accepted once. A recovery code is marked used
 * the same way. Answers null for anything else (wrong, replayed, used, malformed, or 2FA off).
 */
export async function useTwoFactorCode(
  db: Executor,
  params: { user: UserRow; code: string; now: Date },
): Promise<UsedCode | null> {
  const { user, code, now } = params;
  if (!user.totpSecret) {
    return null;
  }
  switch (classifyCode(code)) {
    case 'totp': {
      const step = matchTotpStep({ secret: user.totpSecret, code, now });
      if (step === null || !isStepUnused(step, user.totpLastStep)) {
        return null;
      }
      return (await claimTotpStep(db, { userId: user.id, secret: user.totpSecret, step })) ? 'totp' : null;
    }
    case 'recovery':
      return (await useRecoveryCode(db, { userId: user.id, codeHash: hashRecoveryCode(code), now }))
        ? 'recovery'
        : null;
    default:
      return null;
  }
}
