import { getActiveUserByEmail, insertLedgerEntry, lockUserBalance } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';

export interface AdjustBalanceProps {
  email: string;
  /** Signed cents: positive credits, negative debits. */
  amountCents: number;
  reason: string;
}

/** A back-office adjustment through the same ledger as every other balance change; never below zero. */
export async function adjustBalance(
  ctx: ServiceContext,
  props: AdjustBalanceProps,
): Promise<{ balanceCents: number; entryId: string }> {
  if (!Number.isSafeInteger(props.amountCents) || props.amountCents === 0) {
    throw new DomainError(
      'VALIDATION_FAILED',
      'The amount must be a non-zero number of dollars with at most two decimals',
    );
  }
  const user = await getActiveUserByEmail(ctx.db, { email: props.email.trim().toLowerCase() });
  if (!user) {
    throw new DomainError('NOT_FOUND', `No account has the email ${props.email}`);
  }
  return ctx.db.transaction(async (tx) => {
    const balanceCents = (await lockUserBalance(tx, { userId: user.id })) ?? 0;
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
    return { balanceCents: entry.balanceAfterCents, entryId: entry.id };
  });
}
