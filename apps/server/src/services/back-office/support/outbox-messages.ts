import {
  OUTBOX_PAGE_SIZE,
  type OutboxMessageResponse,
  type OutboxResponse,
} from '@bytegate/contracts/admin-support';
import { insertAuditEntry } from '@bytegate/db/queries';
import { listOutbox, readOutboxMessage } from '../../../mail/outbox.ts';
import type { MailContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import type { StaffActor } from '../staff-actor.ts';

// The console's Outbox: the `.eml` files the mailer writes to DATA_DIR/outbox when SMTP_URL is unset.
// With SMTP_URL set nothing new is kept there; the answer says which way mail goes, and still lists
// what an earlier run without SMTP wrote. The files are the addressees' mail: what staff read here has
// its one-time links redacted (mail/outbox.ts), and every message opened is written to the audit log.

/** One page of the outbox, newest first; `before` (an id) pages on to older messages. */
export async function listOutboxMessages(
  ctx: MailContext,
  props: { before?: string | undefined },
): Promise<OutboxResponse> {
  // One more than a page tells whether an older page exists.
  const entries = await listOutbox(ctx.config.dataDir, {
    limit: OUTBOX_PAGE_SIZE + 1,
    ...(props.before ? { before: props.before } : {}),
  });
  const page = entries.slice(0, OUTBOX_PAGE_SIZE);
  return {
    transport: ctx.mailer.transport,
    messages: page,
    nextBefore: entries.length > OUTBOX_PAGE_SIZE ? (page.at(-1)?.id ?? null) : null,
  };
}

/**
 * One outbox message as staff may read it: its headers, text and HTML, one-time links redacted (the
 * console frames the HTML sandboxed). The read is audited first: a message whose read could not be
 * recorded is not shown.
 */
export async function getOutboxMessage(
  ctx: MailContext,
  props: { outboxId: string; actor: StaffActor },
): Promise<OutboxMessageResponse> {
  const message = await readOutboxMessage(ctx.config.dataDir, props.outboxId);
  if (!message) {
    throw new DomainError('NOT_FOUND', 'No such message in the outbox');
  }
  await insertAuditEntry(ctx.db, {
    actorUserId: props.actor.userId,
    actorEmail: props.actor.email,
    action: 'outbox.read',
    targetType: 'outbox_message',
    targetId: message.id,
    before: null,
    after: { to: message.to, subject: message.subject, redaction: message.redaction },
    reason: null,
  });
  return message;
}
