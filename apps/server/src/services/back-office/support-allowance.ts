import { SUPPORT_BALANCE_LIMIT_CENTS, SUPPORT_LIMIT_WINDOW_HOURS } from '@bytegate/contracts/admin';
import { messages } from '@bytegate/contracts/messages';
import { formatUsd } from '@bytegate/contracts/money';
import type { Transaction } from '@bytegate/db';
import { lockStaffMember, sumAuditedCents } from '@bytegate/db/queries';
import { DomainError } from '../domain-error.ts';
import { hasRole, type StaffActor } from './staff-actor.ts';

/**
 * The audited actions that move a customer's balance by staff hand, each recording its cents in
 * `after.amountCents`: they share support's allowance, counted either way (a debit too).
 */
export const SUPPORT_LIMITED_ACTIONS = ['customer.balance.adjust', 'order.refund', 'topup.approve'] as const;

/** What support may still move now: by this member, and on this customer by all support together. */
export async function getSupportAllowance(
  tx: Transaction,
  props: { actor: StaffActor; customerId: string },
): Promise<{ movedByActorCents: number; movedOnCustomerCents: number; leftCents: number }> {
  const window = { actions: SUPPORT_LIMITED_ACTIONS, windowHours: SUPPORT_LIMIT_WINDOW_HOURS };
  const movedByActorCents =
    props.actor.userId === null
      ? 0
      : await sumAuditedCents(tx, { ...window, actorUserId: props.actor.userId });
  const movedOnCustomerCents = await sumAuditedCents(tx, { ...window, targetUserId: props.customerId });
  const leftCents = Math.max(
    0,
    SUPPORT_BALANCE_LIMIT_CENTS - Math.max(movedByActorCents, movedOnCustomerCents),
  );
  return { movedByActorCents, movedOnCustomerCents, leftCents };
}

/**
 * Refuses support a balance change of `amountCents` (either sign) that would take what they moved in the
 * last 24 hours past SUPPORT_BALANCE_LIMIT_CENTS, or what support as a whole moved on this customer in
 * that time: beyond it an admin acts. Admins (and the command line) are not limited.
 *
 * Call it inside the action's transaction, after the customer's row is locked and before writing the
 * action's audit entry, which is what spends the allowance. It locks the support member's row, so two
 * actions of one member (on any customers) read and spend the allowance one after the other; the
 * customer's row lock does the same for two members acting on one customer. The locks come in the order
 * customer, then staff member, and nothing takes them the other way round (support cannot act on staff).
 */
export async function checkSupportAllowance(
  tx: Transaction,
  props: { actor: StaffActor; customerId: string; amountCents: number },
): Promise<void> {
  if (hasRole(props.actor.role, 'admin') || props.actor.userId === null) {
    return;
  }
  await lockStaffMember(tx, { userId: props.actor.userId });
  const { movedByActorCents, movedOnCustomerCents } = await getSupportAllowance(tx, props);
  const amountCents = Math.abs(props.amountCents);
  const limit = formatUsd(SUPPORT_BALANCE_LIMIT_CENTS);
  if (movedByActorCents + amountCents > SUPPORT_BALANCE_LIMIT_CENTS) {
    throw new DomainError(
      'FORBIDDEN',
      `${messages.adminOnly}: support may move at most ${limit} in ${SUPPORT_LIMIT_WINDOW_HOURS} hours, and you moved ${formatUsd(movedByActorCents)} in that time; an admin must make this change`,
    );
  }
  if (movedOnCustomerCents + amountCents > SUPPORT_BALANCE_LIMIT_CENTS) {
    throw new DomainError(
      'FORBIDDEN',
      `${messages.adminOnly}: support may move at most ${limit} of a customer's balance in ${SUPPORT_LIMIT_WINDOW_HOURS} hours, and support moved ${formatUsd(movedOnCustomerCents)} of this customer's in that time; an admin must make this change`,
    );
  }
}
