import type { ContactStatus } from '@bytegate/contracts/admin-support';
import { insertAuditEntry, updateContactMessage } from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import type { StaffActor } from '../staff-actor.ts';
import { CONTACT_TARGET_TYPE, lockMessageOr404 } from './lock-contact-message.ts';

/**
 * Moves a message to a status (new, open, answered, closed), with its audit entry in the same
 * transaction. The status it already has changes nothing and records nothing.
 */
export async function setContactStatus(
  ctx: ServiceContext,
  props: { messageId: string; status: ContactStatus; actor: StaffActor },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const message = await lockMessageOr404(tx, props.messageId);
    if (message.status === props.status) {
      return;
    }
    await updateContactMessage(tx, { messageId: message.id, status: props.status });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'contact.status',
      targetType: CONTACT_TARGET_TYPE,
      targetId: message.id,
      before: { status: message.status },
      after: { status: props.status },
      reason: null,
    });
  });
}
