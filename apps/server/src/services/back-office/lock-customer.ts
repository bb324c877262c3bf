import type { Transaction } from '@bytegate/db';
import { lockUser, type UserRow } from '@bytegate/db/queries';
import { DomainError } from '../domain-error.ts';

/** Locks the (not deleted) account a back-office action is about for its transaction; else a 404. */
export async function lockCustomer(tx: Transaction, userId: string): Promise<UserRow> {
  const user = await lockUser(tx, { userId });
  if (!user) {
    throw new DomainError('NOT_FOUND', 'No such customer');
  }
  return user;
}
