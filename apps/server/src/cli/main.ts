import { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { balanceCommand } from './balance.ts';
import { exitsCommand } from './exits.ts';
import { describeFailure } from './failure.ts';
import { openDatabase } from './open-database.ts';
import { staffCommand } from './staff.ts';
import { start } from './start.ts';
import { unblockCommand } from './unblock.ts';

const program = new Command()
  .name('bytegate')
  .description('Bytegate: the web app, the API and the proxy gateway, and their back-office commands.')
  .showHelpAfterError()
  .exitOverride();

program
  .command('start')
  .description('Run the product: migrate the database, then serve web, API, gateway and jobs (see ROLES)')
  .action(async () => {
    await start(loadConfig());
  });

program
  .command('migrate')
  .description('Apply the database migrations that have not run yet, then exit')
  .action(async () => {
    const database = await openDatabase(loadConfig());
    try {
      await database.migrate();
      console.log(`Migrations applied (${database.kind}).`);
    } finally {
      await database.close();
    }
  });

program.addCommand(balanceCommand);
program.addCommand(exitsCommand);
program.addCommand(staffCommand);
program.addCommand(unblockCommand);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const { message, exitCode } = describeFailure(error);
  if (message !== null) {
    console.error(message);
  }
  process.exit(exitCode);
}
