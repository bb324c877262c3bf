import { Command } from 'commander';
import { type Config, loadConfig } from '../config.ts';
import { useGeoipDatabases } from '../geoip/geoip-databases.ts';
import type { MailLog } from '../mail/mailer.ts';
import { adminSocketPath, sendToRunningServer } from './admin-channel.ts';
import { terminalCliContext } from './context.ts';
import { describeFailure } from './failure.ts';
import { embeddedDatabaseOwner, openDatabase } from './open-database.ts';
import { BACK_OFFICE_COMMAND_NAMES, buildProgram, runCommandLine } from './program.ts';

/** A command run in a terminal logs mail failures to stderr; the server's pino logger is not here. */
const terminalMailLog = {
  info: () => undefined,
  error: (...args: unknown[]) => console.error(...args.filter((arg) => typeof arg === 'string')),
} as unknown as MailLog;

const cli = terminalCliContext({
  config: loadConfig,
  async open(config: Config) {
    useGeoipDatabases(config.geoip);
    const database = await openDatabase(config);
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
    const { createMailer } = await import('../mail/mailer.ts');
    return {
      services: { db: database.db, config, mailer: createMailer(config, terminalMailLog) },
      close: () => database.close(),
    };
  },
});

const startCommand = new Command('start')
  .description('Run the product: migrate the database, then serve web, API, gateway and jobs (see ROLES)')
  .action(async () => {
    // Loaded here, not at the top: the whole server (web, API, gateway, jobs) costs seconds to load,
    // which every back-office command would pay for nothing.
    const { start } = await import('./start.ts');
    await start(loadConfig());
  });

const migrateCommand = new Command('migrate')
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

/**
 * A back-office command while a server runs on the embedded database goes to that server (its admin
 * channel) and prints what the server answers; null when it runs here.
 */
async function exitCodeFromRunningServer(argv: string[]): Promise<number | null> {
  const name = argv.find((arg) => !arg.startsWith('-'));
  if (name === undefined || !BACK_OFFICE_COMMAND_NAMES.has(name) || argv.includes('--help')) {
    return null;
  }
  const config = loadConfig();
  if (config.databaseUrl || embeddedDatabaseOwner(config.dataDir) === null) {
    return null;
  }
  const result = await sendToRunningServer(adminSocketPath(config.dataDir), argv, process.cwd());
  if (result === null) {
    return null;
  }
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.exitCode;
}

const argv = process.argv.slice(2);
let exitCode: number;
try {
  exitCode =
    (await exitCodeFromRunningServer(argv)) ??
    (await runCommandLine(buildProgram(cli, [startCommand, migrateCommand]), argv, cli));
} catch (error) {
  const failure = describeFailure(error);
  if (failure.message !== null) {
    console.error(failure.message);
  }
  exitCode = failure.exitCode;
}
// `start` keeps running (its servers hold the event loop); every other command ends here.
if (exitCode !== 0 || argv[0] !== 'start') {
  process.exit(exitCode);
}
