import { insertAuditEntry, insertContactEntry, updateContactMessage } from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import type { StaffActor } from '../staff-actor.ts';
import { CONTACT_TARGET_TYPE, excerptOf, lockMessageOr404 } from './lock-contact-message.ts';

/** Adds an internal note to a message's thread (never sent to the customer), audited with its start. */
export async function addContactNote(
  ctx: ServiceContext,
  props: { messageId: string; body: string; actor: StaffActor },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const message = await lockMessageOr404(tx, props.messageId);
    const entry = await insertContactEntry(tx, {
      messageId: message.id,
      kind: 'note',
      authorUserId: props.actor.userId,
      authorEmail: props.actor.email,
      body: props.body,
    });
    // The thread moved: it sorts as touched, its status stays.
    await updateContactMessage(tx, { messageId: message.id });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'contact.note',
      targetType: CONTACT_TARGET_TYPE,
      targetId: message.id,
      before: null,
      after: { note: excerptOf(entry.body), entryId: entry.id },
      reason: null,
    });
  });
}
