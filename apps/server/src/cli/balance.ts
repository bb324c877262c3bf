import { formatUsd, parseDollarsToCents } from '@bytegate/contracts/money';
import { Command, InvalidArgumentError } from 'commander';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import type { CliContext } from './context.ts';

function parseAmount(value: string): number {
  const cents = parseDollarsToCents(value);
  if (cents === null || cents === 0) {
    throw new InvalidArgumentError(
      'must be a non-zero dollar amount with at most two decimals, like 12.50 or -3',
    );
  }
  return cents;
}

export function balanceCommand(cli: CliContext): Command {
  const balance = new Command('balance').description('Back-office balance operations');
  balance
    .command('adjust')
    .description('Credit (positive) or debit (negative) a balance, written to the ledger; never below zero')
    .requiredOption('--email <email>', 'the account')
    .requiredOption('--amount <dollars>', 'signed amount in dollars, e.g. 12.50 or -3', parseAmount)
    .requiredOption('--reason <text>', 'why, kept in the ledger')
    .allowExcessArguments(false)
    .action(async (options: { email: string; amount: number; reason: string }) => {
      const result = await cli.withServices((ctx) =>
        adjustBalance(ctx, {
          actor: CLI_ACTOR,
          email: options.email,
          amountCents: options.amount,
          reason: options.reason,
        }),
      );
      cli.console.log(
        `Adjusted ${options.email} by ${formatUsd(options.amount)}: balance is now ${formatUsd(result.balanceCents)} (ledger entry ${result.entryId}).`,
      );
    });
  return balance;
}
