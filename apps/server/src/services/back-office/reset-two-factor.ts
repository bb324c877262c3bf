import {
  clearTwoFactor,
  countUnusedRecoveryCodes,
  insertAuditEntry,
  revokeUserSessions,
} from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { notify } from '../notifications/notify.ts';
import { lockCustomer } from './lock-customer.ts';
import type { StaffActor } from './staff-actor.ts';

/**
 * Support's answer to a lost phone: turns the customer's two-factor off (secret, recovery codes and
 * sign-ins waiting for a code gone), signs them out everywhere, writes the audit entry and tells the
 * customer, in one transaction. The customer then signs in with the password alone and may enrol again.
 * Staff never reset their own: they turn it off in User Settings with their password and a code.
 */
export async function resetCustomerTwoFactor(
  ctx: ServiceContext,
  props: { userId: string; reason: string; actor: StaffActor },
): Promise<void> {
  if (props.userId === props.actor.userId) {
    throw new DomainError(
      'FORBIDDEN',
      'You cannot reset your own two-factor authentication: turn it off in User Settings',
    );
  }
  await ctx.db.transaction(async (tx) => {
    const user = await lockCustomer(tx, props.userId, props.actor);
    if (!user.totpSecret) {
      throw new DomainError('CONFLICT', 'This customer does not have two-factor authentication on');
    }
    const recoveryCodesLeft = await countUnusedRecoveryCodes(tx, { userId: user.id });
    await clearTwoFactor(tx, { userId: user.id });
    const revokedSessions = await revokeUserSessions(tx, { userId: user.id, now: new Date() });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'customer.two_factor.reset',
      targetType: 'user',
      targetId: user.id,
      before: {
        twoFactor: 'on',
        twoFactorEnabledAt: user.totpEnabledAt?.toISOString() ?? null,
        recoveryCodesLeft,
        liveSessions: revokedSessions,
      },
      after: { twoFactor: 'off', liveSessions: 0 },
      reason: props.reason,
    });
    await notify(tx, { userId: user.id, kind: 'two_factor_changed', data: { change: 'reset_by_staff' } });
    await recordActivity(tx, { userId: user.id, kind: 'support_two_factor_reset', details: {} });
  });
}
