import { Command } from 'commander';
import { agentsCommand } from './agents.ts';
import { balanceCommand } from './balance.ts';
import type { CliContext } from './context.ts';
import { customersCommand } from './customers.ts';
import { exitsCommand } from './exits.ts';
import { describeFailure } from './failure.ts';
import { refundCommand } from './refund.ts';
import { sourcesCommand } from './sources.ts';
import { staffCommand } from './staff.ts';
import { threadsCommand } from './threads.ts';
import { twoFactorCommand } from './two-factor.ts';
import { unblockCommand } from './unblock.ts';

/**
 * The back-office commands: each works with no server running, beside a server on PostgreSQL (on the
 * same database) and beside a server on the embedded database (inside it, over the admin channel).
 */
export function backOfficeCommands(cli: CliContext): Command[] {
  return [
    agentsCommand(cli),
    balanceCommand(cli),
    customersCommand(cli),
    exitsCommand(cli),
    refundCommand(cli),
    sourcesCommand(cli),
    staffCommand(cli),
    threadsCommand(cli),
    twoFactorCommand(cli),
    unblockCommand(cli),
  ];
}

/** The names of the back-office commands: what a running server may be asked to run. */
export const BACK_OFFICE_COMMAND_NAMES: ReadonlySet<string> = new Set(
  backOfficeCommands(unusedContext()).map((command) => command.name()),
);

/** The `bytegate` program with `extra` commands (start, migrate) and the back-office ones. */
export function buildProgram(cli: CliContext, extra: Command[] = []): Command {
  const program = new Command()
    .name('bytegate')
    .description('Bytegate: the web app, the API and the proxy gateway, and their back-office commands.');
  for (const command of [...extra, ...backOfficeCommands(cli)]) {
    program.addCommand(command);
  }
  configureTree(program, cli);
  return program;
}

/**
 * Parses and runs one command line; answers the exit status. A failure is printed as `describeFailure`
 * says; nothing here ends the process, so a server can run commands for the command line.
 */
export async function runCommandLine(program: Command, argv: string[], cli: CliContext): Promise<number> {
  try {
    await program.parseAsync(argv, { from: 'user' });
    return cli.exitCode;
  } catch (error) {
    const { message, exitCode } = describeFailure(error);
    if (message !== null) {
      cli.writeErr(`${message}\n`);
    }
    return exitCode;
  }
}

/**
 * Every command and subcommand throws instead of exiting and writes through the context. Commander
 * copies these settings only to subcommands made with `.command()` after they are set, not to ones
 * added whole, so they are set on each.
 */
function configureTree(command: Command, cli: CliContext): void {
  command
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({
      writeOut: (text) => cli.writeOut(text),
      writeErr: (text) => cli.writeErr(text),
    });
  for (const sub of command.commands) {
    configureTree(sub, cli);
  }
}

function unusedContext(): CliContext {
  const refuse = () => {
    throw new Error('a command was run while only its name was read');
  };
  return {
    console,
    cwd: '.',
    writeOut: refuse,
    writeErr: refuse,
    withServices: refuse,
    fail: refuse,
    exitWith: refuse,
    exitCode: 0,
  };
}
