import { Command, InvalidArgumentError } from 'commander';
import { changeUnblocks, parseUnblockHost, parseUnblockPort } from '../services/accounts/unblocks.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import type { CliContext } from './context.ts';

function collectPort(value: string, previous: number[]): number[] {
  const port = parseUnblockPort(value);
  if (port === null) {
    throw new InvalidArgumentError('must be a port from 1 to 65535');
  }
  return [...previous, port];
}

function collectHost(value: string, previous: string[]): string[] {
  const host = parseUnblockHost(value);
  if (host === null) {
    throw new InvalidArgumentError('must be a domain name, like example.com (it covers every name under it)');
  }
  return [...previous, host];
}

export function unblockCommand(cli: CliContext): Command {
  return new Command('unblock')
    .description(
      "Open target ports or blocked-category domains for one customer (support's tool), close them again, or list them",
    )
    .argument('[email]', 'the account (or --email)')
    .option('--email <email>', 'the account, as for `bytegate balance adjust`')
    .option('--port <port>', 'a target port to open (repeatable)', collectPort, [])
    .option(
      '--host <domain>',
      'a blocked domain to open, with every name under it (repeatable)',
      collectHost,
      [],
    )
    .option('--remove', 'close the given ports and domains again instead')
    .option('--reason <text>', 'why, kept in the audit log with the change')
    .option(
      '--list',
      "only show the customer's unblocked ports and domains (also what no --port/--host does)",
    )
    .allowExcessArguments(false)
    .action(
      async (
        emailArgument: string | undefined,
        options: {
          email?: string;
          port: number[];
          host: string[];
          remove?: boolean;
          list?: boolean;
          reason?: string;
        },
        command: Command,
      ) => {
        const email = emailArgument ?? options.email;
        const changes = options.port.length + options.host.length;
        if (!email) {
          command.error('error: give the account: bytegate unblock <email> [--port 25] [--host example.com]');
        } else if (emailArgument && options.email && emailArgument !== options.email) {
          command.error(`error: two different accounts given: ${emailArgument} and --email ${options.email}`);
        } else if (options.list && (changes > 0 || options.remove || options.reason)) {
          command.error('error: --list only shows; leave out --port, --host, --remove and --reason');
        } else if (options.remove && changes === 0) {
          command.error('error: --remove needs the --port or --host to close');
        }
        const result = await cli.withServices((ctx) =>
          changeUnblocks(ctx.db, {
            email,
            ports: options.port,
            hosts: options.host,
            remove: options.remove ?? false,
            // The same use case as the console's, so the change is audited alike (by 'cli').
            actor: CLI_ACTOR,
            reason: options.reason?.trim() || null,
          }),
        );
        const ports = result.ports.length > 0 ? result.ports.join(', ') : 'none';
        const hosts = result.hosts.length > 0 ? result.hosts.join(', ') : 'none';
        cli.console.log(`${email}: unblocked ports ${ports}; unblocked domains ${hosts}.`);
      },
    );
}
