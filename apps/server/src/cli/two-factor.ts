import { Command } from 'commander';
import { resetCustomerTwoFactor } from '../services/back-office/reset-two-factor.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import type { CliContext } from './context.ts';
import { resolveCustomerId } from './customer-ref.ts';

export function twoFactorCommand(cli: CliContext): Command {
  const twoFactor = new Command('two-factor').description("Customers' two-factor authentication");
  twoFactor
    .command('reset')
    .description(
      "Turn a customer's two-factor authentication off (a lost phone): signs them out everywhere, tells them, and is audited",
    )
    .argument('<customer>', 'the account, by email or id')
    .requiredOption('--reason <text>', 'why (how the customer proved who they are), kept in the audit log')
    .allowExcessArguments(false)
    .action(async (reference: string, options: { reason: string }) => {
      await cli.withServices(async (ctx) => {
        const userId = await resolveCustomerId(ctx, reference);
        await resetCustomerTwoFactor(ctx, { userId, reason: options.reason, actor: CLI_ACTOR });
      });
      cli.console.log(
        `Two-factor authentication is off for ${reference}: they sign in with their password alone, and every session was signed out.`,
      );
    });
  return twoFactor;
}
