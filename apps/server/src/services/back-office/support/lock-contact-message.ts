import type { Transaction } from '@bytegate/db';
import { type ContactMessageRow, lockContactMessage } from '@bytegate/db/queries';
import { DomainError } from '../../domain-error.ts';

/** What the audit log names a contact message as. */
export const CONTACT_TARGET_TYPE = 'contact_message';

/** Locks the message an inbox action is about for its transaction, else a 404. */
export async function lockMessageOr404(tx: Transaction, messageId: string): Promise<ContactMessageRow> {
  const message = await lockContactMessage(tx, { messageId });
  if (!message) {
    throw new DomainError('NOT_FOUND', 'No such message');
  }
  return message;
}

/** The start of a note or reply as the audit log keeps it: the thread has the whole text. */
export function excerptOf(body: string): string {
  return body.length > 200 ? `${body.slice(0, 199)}…` : body;
}
