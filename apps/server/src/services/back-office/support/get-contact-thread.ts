import type { ContactCustomer, ContactThreadResponse } from '@bytegate/contracts/admin-support';
import {
  type ContactMessageRow,
  getActiveUserByEmail,
  getActiveUserById,
  getContactMessage,
  listContactEntries,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import { presentContactCustomer, presentContactThread } from './present-support.ts';

/**
 * The customer account a message is from: the account that was signed in when it was sent, else the
 * account whose email the sender gave (the form does not prove the address is theirs, so staff see how
 * it matched); null for a visitor without an account.
 */
async function customerOf(ctx: ServiceContext, message: ContactMessageRow): Promise<ContactCustomer | null> {
  if (message.userId) {
    const user = await getActiveUserById(ctx.db, { userId: message.userId });
    if (user) {
      return presentContactCustomer(user, 'account');
    }
  }
  const byEmail = await getActiveUserByEmail(ctx.db, { email: message.email.trim().toLowerCase() });
  return byEmail ? presentContactCustomer(byEmail, 'email') : null;
}

/** A contact message's thread: the message, its assignee, the customer it is from, notes and replies. */
export async function getContactThread(
  ctx: ServiceContext,
  props: { messageId: string },
): Promise<ContactThreadResponse> {
  const found = await getContactMessage(ctx.db, { messageId: props.messageId });
  if (!found) {
    throw new DomainError('NOT_FOUND', 'No such message');
  }
  const [customer, entries] = await Promise.all([
    customerOf(ctx, found.message),
    listContactEntries(ctx.db, { messageId: found.message.id }),
  ]);
  return presentContactThread({ ...found, customer, entries });
}
