import { PASSWORD_RESET_LINK_TTL_MS } from '@bytegate/contracts/account-links';
import { insertAuditEntry } from '@bytegate/db/queries';
import { issuePasswordResetToken, mailPasswordResetLink } from '../account-links/request-password-reset.ts';
import type { MailContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { lockCustomer } from './lock-customer.ts';
import type { StaffActor } from './staff-actor.ts';

/**
 * Support mails a customer who cannot sign in the link to set a new password: the same link as "Forgot
 * your password?" (30 minutes, once, earlier links ended), to the account's own address only. Staff
 * never see it: the Outbox shows it redacted. A staff account's reset is an admin's to send (support
 * could otherwise aim one at an admin); the audit entry is written with the token, in one transaction.
 */
export async function sendPasswordResetAsStaff(
  ctx: MailContext,
  props: { userId: string; reason: string; actor: StaffActor },
): Promise<void> {
  const { user, token } = await ctx.db.transaction(async (tx) => {
    const locked = await lockCustomer(tx, props.userId, props.actor);
    if (locked.disabledAt) {
      throw new DomainError('CONFLICT', 'This account is disabled: enable it before sending a reset link');
    }
    const issued = await issuePasswordResetToken(tx, { user: locked, now: new Date() });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'customer.password_reset.send',
      targetType: 'user',
      targetId: locked.id,
      // Where the link went, never the link.
      before: null,
      after: { to: locked.email, validMinutes: PASSWORD_RESET_LINK_TTL_MS / 60_000 },
      reason: props.reason,
    });
    return { user: locked, token: issued };
  });
  await mailPasswordResetLink(ctx, { user, token });
}
