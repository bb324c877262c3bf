import {
  getContactMessage,
  insertAuditEntry,
  insertContactEntry,
  updateContactMessage,
} from '@bytegate/db/queries';
import { contactReply } from '../../../mail/templates.ts';
import type { MailContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import type { StaffActor } from '../staff-actor.ts';
import { CONTACT_TARGET_TYPE, excerptOf, lockMessageOr404 } from './lock-contact-message.ts';

/** The sender as a To header: their name quoted (without what could break out of the quotes), their address. */
function recipientOf(name: string, email: string): string {
  const safeName = name.replace(/["\\<>\r\n]/g, '').trim();
  return safeName ? `"${safeName}" <${email}>` : email;
}

/**
 * Mails staff's reply to the sender (the `contactReply` template: "Re: <subject>", the message quoted)
 * and keeps it in the thread with its Message-ID, the message then 'answered'. The mail goes first and
 * outside the transaction: a slow SMTP server must not hold the database (PGlite has one connection),
 * and a mail that could not be sent (503 UPSTREAM_UNAVAILABLE) leaves no reply in the thread.
 */
export async function replyToContactMessage(
  ctx: MailContext,
  props: { messageId: string; body: string; actor: StaffActor },
): Promise<void> {
  const found = await getContactMessage(ctx.db, { messageId: props.messageId });
  if (!found) {
    throw new DomainError('NOT_FOUND', 'No such message');
  }
  const { message } = found;
  const sent = await ctx.mailer.send({
    to: recipientOf(message.name, message.email),
    ...contactReply({
      name: message.name,
      subject: message.subject ?? '',
      originalMessage: message.message,
      reply: props.body,
    }),
  });
  await ctx.db.transaction(async (tx) => {
    const locked = await lockMessageOr404(tx, message.id);
    const entry = await insertContactEntry(tx, {
      messageId: locked.id,
      kind: 'reply',
      authorUserId: props.actor.userId,
      authorEmail: props.actor.email,
      body: props.body,
      mailMessageId: sent.messageId,
    });
    await updateContactMessage(tx, { messageId: locked.id, status: 'answered' });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'contact.reply',
      targetType: CONTACT_TARGET_TYPE,
      targetId: locked.id,
      before: { status: locked.status },
      after: {
        status: 'answered',
        to: message.email,
        reply: excerptOf(entry.body),
        mailMessageId: sent.messageId,
        entryId: entry.id,
      },
      reason: null,
    });
  });
}
