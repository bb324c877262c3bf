import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config.ts';
import { balanceCommand } from './balance.ts';
import { exitsCommand } from './exits.ts';
import { openDatabase } from './open-database.ts';
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
program.addCommand(unblockCommand);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exit(error.exitCode);
  }
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
