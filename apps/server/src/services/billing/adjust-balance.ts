import {
  getActiveUserByEmail,
  getActiveUserById,
  insertAuditEntry,
  insertLedgerEntry,
  lockUserBalance,
} from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import { checkMayActOn } from '../back-office/lock-customer.ts';
import { CLI_ACTOR, type StaffActor } from '../back-office/staff-actor.ts';
import { checkSupportAllowance } from '../back-office/support-allowance.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';

export type AdjustBalanceProps = (
  | { /** The account by email (the command line). */ email: string; userId?: undefined }
  | { /** The account by id (the back office). */ userId: string; email?: undefined }
) & {
  /** Signed cents: positive credits, negative debits. */
  amountCents: number;
  /** Why; kept in the ledger and in the audit log. */
  reason: string;
  /**
   * Who adjusts, for support's 24-hour allowance and the audit log: the back office passes the signed-in staff
   * member; left out, it is the operator on the host (the `bytegate` command, scripts, tests).
   */
  actor?: StaffActor | undefined;
};

/**
 * A back-office adjustment through the same ledger as every other balance change; never below zero.
 * The ledger entry and its audit entry (balance before and after) are written in one transaction.
 */
export async function adjustBalance(
  ctx: ServiceContext,
  props: AdjustBalanceProps,
): Promise<{ userId: string; balanceCents: number; entryId: string }> {
  if (!Number.isSafeInteger(props.amountCents) || props.amountCents === 0) {
    throw new DomainError(
      'VALIDATION_FAILED',
      'The amount must be a non-zero number of dollars with at most two decimals',
    );
  }
  const actor = props.actor ?? CLI_ACTOR;
  const user =
    props.email !== undefined
      ? await getActiveUserByEmail(ctx.db, { email: props.email.trim().toLowerCase() })
      : await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError(
      'NOT_FOUND',
      props.email !== undefined ? `No account has the email ${props.email}` : 'No such customer',
    );
  }
  checkMayActOn(actor, user);
  return ctx.db.transaction(async (tx) => {
    const balanceCents = (await lockUserBalance(tx, { userId: user.id })) ?? 0;
    await checkSupportAllowance(tx, { actor, customerId: user.id, amountCents: props.amountCents });
    if (balanceCents + props.amountCents < 0) {
      throw new DomainError(
        'INSUFFICIENT_BALANCE',
        `The balance is $${(balanceCents / 100).toFixed(2)}; an adjustment of $${(props.amountCents / 100).toFixed(2)} would take it below zero`,
      );
    }
    const entry = await insertLedgerEntry(tx, {
      userId: user.id,
      kind: 'adjustment',
      amountCents: props.amountCents,
      reason: props.reason,
    });
    await insertAuditEntry(tx, {
      actorUserId: actor.userId,
      actorEmail: actor.email,
      action: 'customer.balance.adjust',
      targetType: 'user',
      targetId: user.id,
      before: { balanceCents },
      after: {
        balanceCents: entry.balanceAfterCents,
        amountCents: props.amountCents,
        ledgerEntryId: entry.id,
      },
      reason: props.reason,
    });
    // The customer reads what moved, never who moved it or the reason staff gave.
    await recordActivity(tx, {
      userId: user.id,
      kind: 'support_balance_adjusted',
      details: { amountCents: props.amountCents, balanceCents: entry.balanceAfterCents },
    });
    return { userId: user.id, balanceCents: entry.balanceAfterCents, entryId: entry.id };
  });
}
