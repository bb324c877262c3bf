import {
  OUTBOX_PAGE_SIZE,
  type OutboxMessageResponse,
  type OutboxResponse,
} from '@bytegate/contracts/admin-support';
import { listOutbox, readOutboxMessage } from '../../../mail/outbox.ts';
import type { MailContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';

// The console's Outbox: the `.eml` files the mailer writes to DATA_DIR/outbox when SMTP_URL is unset.
// With SMTP_URL set nothing new is kept there; the answer says which way mail goes, and still lists
// what an earlier run without SMTP wrote.

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

/** One outbox message: its headers, text and HTML (as sent; the console frames it sandboxed). */
export async function getOutboxMessage(
  ctx: MailContext,
  props: { outboxId: string },
): Promise<OutboxMessageResponse> {
  const message = await readOutboxMessage(ctx.config.dataDir, props.outboxId);
  if (!message) {
    throw new DomainError('NOT_FOUND', 'No such message in the outbox');
  }
  return message;
}
