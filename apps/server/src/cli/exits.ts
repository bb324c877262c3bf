import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Database } from '@bytegate/db';
import { createExits, deleteExit, listExitsForAdmin } from '@bytegate/db/queries';
import { Command } from 'commander';
import {
  exitInputSchema,
  maskUpstreamUrl,
  parseExitFile,
  toNewExit,
} from '../services/inventory/exit-input.ts';
import { type CliContext, resolveFrom } from './context.ts';

export function exitsCommand(cli: CliContext): Command {
  const withDatabase = <T>(work: (db: Database) => Promise<T>) => cli.withServices((ctx) => work(ctx.db));
  const fail = (message: string) => cli.fail(message);
  const exitsCommand = new Command('exits').description(
    'Manage the exit inventory the gateway routes through',
  );

  exitsCommand
    .command('list')
    .description('List every exit')
    .action(async () => {
      const rows = await withDatabase((db) => listExitsForAdmin(db));
      if (rows.length === 0) {
        cli.console.log('No exits. Add one with `bytegate exits add` or `bytegate exits import FILE`.');
        return;
      }
      cli.console.table(
        rows.map((row) => ({
          id: row.id,
          name: row.name,
          pool: row.poolType,
          kind: row.kind,
          country: row.country,
          state: row.state ?? '',
          city: row.city ?? '',
          zip: row.zip ?? '',
          asn: row.asn ?? '',
          via: row.localAddress ?? (row.upstreamUrl ? maskUpstreamUrl(row.upstreamUrl) : ''),
          risky: row.isRisky,
          active: row.isActive,
        })),
      );
    });

  exitsCommand
    .command('add')
    .description('Add one exit')
    .requiredOption('--name <name>', 'a name people recognise')
    .requiredOption('--pool <pool>', 'datacenter, residential or mobile')
    .requiredOption('--country <code>', 'two-letter ISO country code')
    .option('--kind <kind>', 'direct (from this host) or upstream (through another proxy)', 'direct')
    .option('--state <state>')
    .option('--city <city>')
    .option('--zip <zip>')
    .option('--asn <asn>')
    .option('--asn-name <name>')
    .option('--mobile-generation <gen>', '5G, 4G, 3G or LTE')
    .option('--local-address <ip>', 'bind outgoing connections to this local address (direct exits)')
    .option('--upstream-url <url>', 'http:// or socks5:// proxy URL with credentials (upstream exits)')
    .option('--risky', 'skipped by the anonymous filter')
    .action(async (options: Record<string, unknown>) => {
      const parsed = exitInputSchema.safeParse(options);
      if (!parsed.success) {
        fail(
          parsed.error.issues
            .map((issue) => `${issue.path.join('.') || 'exit'}: ${issue.message}`)
            .join('; '),
        );
        return;
      }
      const [row] = await withDatabase((db) => createExits(db, { exits: [toNewExit(parsed.data)] }));
      cli.console.log(`Added exit ${row?.id} (${parsed.data.pool}, ${parsed.data.country}).`);
    });

  exitsCommand
    .command('remove')
    .description('Remove an exit by id')
    .argument('<id>', 'the exit id from `bytegate exits list`')
    .action(async (id: string) => {
      if (!/^[0-9a-f-]{36}$/i.test(id)) {
        fail(`"${id}" is not an exit id`);
        return;
      }
      const removed = await withDatabase((db) => deleteExit(db, { exitId: id }));
      if (removed) {
        cli.console.log(`Removed exit ${id}.`);
      } else {
        fail(`no exit has the id ${id}`);
      }
    });

  exitsCommand
    .command('import')
    .description(
      'Add exits from a CSV (header row) or JSON (array) file; nothing is added if any row is wrong',
    )
    .argument(
      '<file>',
      'a .csv or .json file with columns name,pool,country,state,city,zip,asn,... as for `add`',
    )
    .action(async (file: string) => {
      const format = extname(file).toLowerCase() === '.json' ? 'json' : 'csv';
      let rows: Array<Record<string, unknown>>;
      try {
        rows = parseExitFile(readFileSync(resolveFrom(cli, file), 'utf8'), format);
      } catch (error) {
        fail(`cannot read ${file}: ${(error as Error).message}`);
        return;
      }
      const problems: string[] = [];
      const exits = rows.flatMap((row, index) => {
        const parsed = exitInputSchema.safeParse(row);
        if (!parsed.success) {
          problems.push(
            `row ${index + 1}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
          );
          return [];
        }
        return [toNewExit(parsed.data)];
      });
      if (problems.length > 0) {
        fail(`nothing imported:\n  ${problems.join('\n  ')}`);
        return;
      }
      const added = await withDatabase((db) => createExits(db, { exits }));
      cli.console.log(`Imported ${added.length} exits.`);
    });
  return exitsCommand;
}
