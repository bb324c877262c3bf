import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import {
  changeUnblocks,
  parseUnblockHost,
  parseUnblockPort,
  UnblockError,
} from '../services/accounts/unblocks.ts';
import { openDatabase } from './open-database.ts';

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

export const unblockCommand = new Command('unblock')
  .description(
    "Open target ports or blocked-category domains for one customer (support's tool); without --port or --host, list them",
  )
  .requiredOption('--email <email>', 'the account')
  .option('--port <port>', 'a target port to open (repeatable)', collectPort, [])
  .option(
    '--host <domain>',
    'a blocked domain to open, with every name under it (repeatable)',
    collectHost,
    [],
  )
  .option('--remove', 'close the given ports and domains again instead')
  .allowExcessArguments(false)
  .action(async (options: { email: string; port: number[]; host: string[]; remove?: boolean }) => {
    const config = loadConfig();
    const database = await openDatabase(config);
    try {
      await database.migrate();
      const result = await changeUnblocks(database.db, {
        email: options.email,
        ports: options.port,
        hosts: options.host,
        remove: options.remove ?? false,
      });
      const ports = result.ports.length > 0 ? result.ports.join(', ') : 'none';
      const hosts = result.hosts.length > 0 ? result.hosts.join(', ') : 'none';
      console.log(`${options.email}: unblocked ports ${ports}; unblocked domains ${hosts}.`);
    } catch (error) {
      if (error instanceof UnblockError) {
        console.error(`error: ${error.message}`);
        process.exitCode = 1;
        return;
      }
      throw error;
    } finally {
      await database.close();
    }
  });
