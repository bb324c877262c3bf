import type { UserRole } from '@bytegate/contracts/admin';
import { STAFF_ROLES, type StaffRole } from '@bytegate/contracts/admin';
import { Command, InvalidArgumentError } from 'commander';
import { setStaffRole } from '../services/back-office/set-staff-role.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import type { CliContext } from './context.ts';

function parseRole(value: string): StaffRole {
  if (!(STAFF_ROLES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${STAFF_ROLES.join(', ')}`);
  }
  return value as StaffRole;
}

/** Sets the role through the use case (audited with actor 'cli') and says what changed. */
async function runSetRole(
  cli: CliContext,
  options: { email: string; role: UserRole; reason?: string },
): Promise<void> {
  const result = await cli.withServices((ctx) =>
    setStaffRole(ctx, { email: options.email, role: options.role, reason: options.reason, actor: CLI_ACTOR }),
  );
  cli.console.log(
    result.before === result.after
      ? `${options.email} is already ${result.after}; nothing changed.`
      : `${options.email} is now ${result.after} (was ${result.before}).`,
  );
}

export function staffCommand(cli: CliContext): Command {
  const staff = new Command('staff').description(
    'Back-office staff: who may open the console at /admin (the first admin is made here)',
  );
  staff
    .command('grant')
    .description('Make an account support or admin; it signs in through the normal login')
    .requiredOption('--email <email>', 'the account')
    .requiredOption('--role <role>', `one of ${STAFF_ROLES.join(', ')}`, parseRole)
    .option('--reason <text>', 'why, kept in the audit log')
    .allowExcessArguments(false)
    .action(async (options: { email: string; role: StaffRole; reason?: string }) => {
      await runSetRole(cli, options);
    });
  staff
    .command('revoke')
    .description('Take staff rights away: the account is a customer again')
    .requiredOption('--email <email>', 'the account')
    .option('--reason <text>', 'why, kept in the audit log')
    .allowExcessArguments(false)
    .action(async (options: { email: string; reason?: string }) => {
      await runSetRole(cli, { ...options, role: 'customer' });
    });
  return staff;
}
