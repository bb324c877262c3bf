import { isStaffRole } from '@bytegate/contracts/admin';
import { messages } from '@bytegate/contracts/messages';
import type { Transaction } from '@bytegate/db';
import { lockUser, type UserRow } from '@bytegate/db/queries';
import { DomainError } from '../domain-error.ts';
import { hasRole, type StaffActor } from './staff-actor.ts';

/** Support acts on customers; a staff account is an admin's to act on. */
export function checkMayActOn(actor: StaffActor, user: Pick<UserRow, 'role'>): void {
  if (isStaffRole(user.role) && !hasRole(actor.role, 'admin')) {
    throw new DomainError('FORBIDDEN', `${messages.adminOnly}: support cannot act on a staff account`);
  }
}

/**
 * Locks the (not deleted) account a back-office action is about for its transaction, else a 404; with
 * an actor, refuses support an account that is staff.
 */
export async function lockCustomer(tx: Transaction, userId: string, actor?: StaffActor): Promise<UserRow> {
  const user = await lockUser(tx, { userId });
  if (!user) {
    throw new DomainError('NOT_FOUND', 'No such customer');
  }
  if (actor) {
    checkMayActOn(actor, user);
  }
  return user;
}
