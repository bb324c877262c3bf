import { twoFactorMessages } from '@bytegate/contracts/two-factor';
import type { Executor } from '@bytegate/db';
import type { UserRow } from '@bytegate/db/queries';
import { DomainError } from '../../domain-error.ts';
import {
  type FailureCounts,
  type FailureCountsFactory,
  type FailureRule,
  memoryFailureCounts,
} from '../login-throttle.ts';
import { type UsedCode, useTwoFactorCode } from './use-two-factor-code.ts';

/**
 * Every check of a two-factor code goes through here: at sign-in, when enrolment is confirmed, and for
 * the actions asked again. Wrong codes are counted per account (in this process, or in Redis for every
 * API process) and past the rule's count refused for the rest of its window, so a stolen password
 * cannot be followed by guessing codes across many sign-in challenges; a right code clears the count.
 */
export class TwoFactorCheck {
  private readonly failures: FailureCounts;

  constructor(rule: FailureRule, counts: FailureCountsFactory = memoryFailureCounts()) {
    this.failures = counts(rule, 'two-factor');
  }

  /**
   * Runs one attempt of `userId` (`attempt` answers null for a wrong code): refused at once while the
   * account is held, counted when wrong. Throws INVALID_TWO_FACTOR_CODE or RATE_LIMITED.
   */
  async attempt<T>(userId: string, attempt: () => Promise<T | null>): Promise<T> {
    const waitMs = await this.failures.lockedForMs(userId);
    if (waitMs > 0) {
      throw new DomainError('RATE_LIMITED', twoFactorMessages.tooManyCodes(waitMs / 1000), undefined, {
        retryAfterSeconds: waitMs / 1000,
      });
    }
    const result = await attempt();
    if (result === null) {
      await this.failures.fail(userId);
      throw new DomainError('INVALID_TWO_FACTOR_CODE', twoFactorMessages.invalidCode);
    }
    await this.failures.clear(userId);
    return result;
  }

  /** Uses an app or recovery code of an account with two-factor on (once: see useTwoFactorCode). */
  verify(db: Executor, params: { user: UserRow; code: string; now?: Date }): Promise<UsedCode> {
    return this.attempt(params.user.id, () =>
      useTwoFactorCode(db, { user: params.user, code: params.code, now: params.now ?? new Date() }),
    );
  }

  /**
   * For an action asked again (password change, deletion, API key, disabling): nothing while two-factor
   * is off; while it is on, 403 TWO_FACTOR_REQUIRED without a code and INVALID_TWO_FACTOR_CODE for a wrong one.
   */
  async requireIfOn(db: Executor, params: { user: UserRow; code: string | undefined }): Promise<void> {
    if (!params.user.totpSecret) {
      return;
    }
    assertCodeGiven(params.user, params.code);
    await this.verify(db, { user: params.user, code: params.code });
  }
}

/** 403 TWO_FACTOR_REQUIRED when two-factor is on and no code came: asked before any slower check. */
export function assertCodeGiven(user: UserRow, code: string | undefined): asserts code is string {
  if (user.totpSecret && !code) {
    throw new DomainError('TWO_FACTOR_REQUIRED', twoFactorMessages.required);
  }
}
