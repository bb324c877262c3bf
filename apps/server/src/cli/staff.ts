import type { UserRole } from '@bytegate/contracts/admin';
import { STAFF_ROLES, type StaffRole } from '@bytegate/contracts/admin';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import { setStaffRole } from '../services/back-office/set-staff-role.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { openDatabase } from './open-database.ts';

function parseRole(value: string): StaffRole {
  if (!(STAFF_ROLES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${STAFF_ROLES.join(', ')}`);
  }
  return value as StaffRole;
}

/** Sets the role through the use case (audited with actor 'cli') and says what changed. */
async function runSetRole(options: { email: string; role: UserRole; reason?: string }): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const result = await setStaffRole(
      { db: database.db, config },
      { email: options.email, role: options.role, reason: options.reason, actor: CLI_ACTOR },
    );
    console.log(
      result.before === result.after
        ? `${options.email} is already ${result.after}; nothing changed.`
        : `${options.email} is now ${result.after} (was ${result.before}).`,
    );
  } finally {
    await database.close();
  }
}

export const staffCommand = new Command('staff').description(
  'Back-office staff: who may open the console at /admin (the first admin is made here)',
);

staffCommand
  .command('grant')
  .description('Make an account support or admin; it signs in through the normal login')
  .requiredOption('--email <email>', 'the account')
  .requiredOption('--role <role>', `one of ${STAFF_ROLES.join(', ')}`, parseRole)
  .option('--reason <text>', 'why, kept in the audit log')
  .allowExcessArguments(false)
  .action(async (options: { email: string; role: StaffRole; reason?: string }) => {
    await runSetRole(options);
  });

staffCommand
  .command('revoke')
  .description('Take staff rights away: the account is a customer again')
  .requiredOption('--email <email>', 'the account')
  .option('--reason <text>', 'why, kept in the audit log')
  .allowExcessArguments(false)
  .action(async (options: { email: string; reason?: string }) => {
    await runSetRole({ ...options, role: 'customer' });
  });
