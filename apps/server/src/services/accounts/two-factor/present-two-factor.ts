import type { TwoFactorStatus } from '@bytegate/contracts/two-factor';
import type { Executor } from '@bytegate/db';
import { countUnusedRecoveryCodes, type UserRow } from '@bytegate/db/queries';

/** An account's two-factor status as User Settings shows it. */
export async function presentTwoFactorStatus(db: Executor, user: UserRow): Promise<TwoFactorStatus> {
  if (!user.totpSecret) {
    return { enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
  }
  return {
    enabled: true,
    enabledAt: user.totpEnabledAt?.toISOString() ?? null,
    recoveryCodesLeft: await countUnusedRecoveryCodes(db, { userId: user.id }),
  };
}
