import { parseDollarsToCents } from '@bytegate/contracts/money';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { openDatabase } from './open-database.ts';

function parseAmount(value: string): number {
  const cents = parseDollarsToCents(value);
  if (cents === null || cents === 0) {
    throw new InvalidArgumentError(
      'must be a non-zero dollar amount with at most two decimals, like 12.50 or -3',
    );
  }
  return cents;
}

export const balanceCommand = new Command('balance').description('Back-office balance operations');

balanceCommand
  .command('adjust')
  .description('Credit (positive) or debit (negative) a balance, written to the ledger; never below zero')
  .requiredOption('--email <email>', 'the account')
  .requiredOption('--amount <dollars>', 'signed amount in dollars, e.g. 12.50 or -3', parseAmount)
  .requiredOption('--reason <text>', 'why, kept in the ledger')
  .allowExcessArguments(false)
  .action(async (options: { email: string; amount: number; reason: string }) => {
    const config = loadConfig();
    const database = await openDatabase(config);
    try {
      await database.migrate();
      const result = await adjustBalance(
        { db: database.db, config },
        { actor: CLI_ACTOR, email: options.email, amountCents: options.amount, reason: options.reason },
      );
      console.log(
        `Adjusted ${options.email} by $${(options.amount / 100).toFixed(2)}: balance is now $${(result.balanceCents / 100).toFixed(2)} (ledger entry ${result.entryId}).`,
      );
    } finally {
      await database.close();
    }
  });
