import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { ImportProblem } from '@bytegate/contracts/admin-exits';
import { listExitsForAdmin } from '@bytegate/db/queries';
import { Command } from 'commander';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { DomainError } from '../services/domain-error.ts';
import { addExit } from '../services/inventory/add-exit.ts';
import { describeExitIssues, exitInputSchema, maskUpstreamUrl } from '../services/inventory/exit-input.ts';
import { importExits } from '../services/inventory/import-exits.ts';
import { exitStatusOf } from '../services/inventory/present-exit.ts';
import { putExitBackIntoRotation } from '../services/inventory/put-exit-back.ts';
import { removeExit } from '../services/inventory/remove-exit.ts';
import { setExitActive } from '../services/inventory/set-exit-active.ts';
import { type CliContext, resolveFrom } from './context.ts';

const EXIT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `bytegate exits`: the inventory from the command line, through the same use cases as the console, so
 * every change is audited (actor `cli`) and checked by the same rules.
 */
export function exitsCommand(cli: CliContext): Command {
  const fail = (message: string) => cli.fail(message);
  const exitsCommand = new Command('exits').description(
    'Manage the exit inventory the gateway routes through (every change is written to the audit log)',
  );

  /** Runs a change on one exit; an unknown id reads as the command's own refusal. */
  const onExit = async (id: string, change: (exitId: string) => Promise<void>) => {
    if (!EXIT_ID.test(id)) {
      fail(`"${id}" is not an exit id`);
      return;
    }
    try {
      await change(id);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') {
        fail(`no exit has the id ${id}`);
        return;
      }
      throw error;
    }
  };

  exitsCommand
    .command('list')
    .description('List every exit, with its status (active, out_of_rotation, disabled)')
    .action(async () => {
      const rows = await cli.withServices((ctx) => listExitsForAdmin(ctx.db));
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
          status: exitStatusOf(row),
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
    .option('--reason <text>', 'why, kept in the audit log')
    .action(async ({ reason, ...options }: Record<string, unknown> & { reason?: string }) => {
      // Every problem at once (the use case names the first, for a form field).
      const parsed = exitInputSchema.safeParse(options);
      if (!parsed.success) {
        fail(describeExitIssues(parsed.error));
        return;
      }
      const exit = await cli.withServices((ctx) =>
        addExit(ctx, { input: options, reason, actor: CLI_ACTOR }),
      );
      cli.console.log(`Added exit ${exit.id} (${exit.pool}, ${exit.country}).`);
    });

  exitsCommand
    .command('remove')
    .description('Remove an exit by id')
    .argument('<id>', 'the exit id from `bytegate exits list`')
    .option('--reason <text>', 'why, kept in the audit log')
    .action(async (id: string, options: { reason?: string }) => {
      await onExit(id, async (exitId) => {
        await cli.withServices((ctx) =>
          removeExit(ctx, { exitId, reason: options.reason, actor: CLI_ACTOR }),
        );
        cli.console.log(`Removed exit ${exitId}.`);
      });
    });

  const changes = [
    ['disable', 'Switch an exit off: the gateway stops picking it within a second', 'is disabled'],
    ['enable', 'Switch an exit on again', 'is enabled'],
    ['restore', 'Put an exit the health job took out back into rotation', 'is in rotation'],
  ] as const;
  for (const [name, description, done] of changes) {
    exitsCommand
      .command(name)
      .description(description)
      .argument('<id>', 'the exit id from `bytegate exits list`')
      .requiredOption('--reason <text>', 'why, kept in the audit log')
      .action(async (id: string, options: { reason: string }) => {
        await onExit(id, async (exitId) => {
          const props = { exitId, reason: options.reason, actor: CLI_ACTOR };
          const exit = await cli.withServices((ctx) =>
            name === 'restore'
              ? putExitBackIntoRotation(ctx, props)
              : setExitActive(ctx, { ...props, isActive: name === 'enable' }),
          );
          cli.console.log(`Exit ${exit.id} (${exit.name}) ${done}.`);
        });
      });
  }

  exitsCommand
    .command('import')
    .description(
      'Add exits from a CSV (header row) or JSON (array) file; nothing is added if any row is wrong',
    )
    .argument(
      '<file>',
      'a .csv or .json file with columns name,pool,country,state,city,zip,asn,... as for `add`',
    )
    .option('--reason <text>', 'why, kept in the audit log')
    .action(async (file: string, options: { reason?: string }) => {
      const format = extname(file).toLowerCase() === '.json' ? 'json' : 'csv';
      let content: string;
      try {
        content = readFileSync(resolveFrom(cli, file), 'utf8');
      } catch (error) {
        fail(`cannot read ${file}: ${(error as Error).message}`);
        return;
      }
      try {
        const { imported } = await cli.withServices((ctx) =>
          importExits(ctx, { content, format, reason: options.reason, actor: CLI_ACTOR }),
        );
        cli.console.log(`Imported ${imported} exits.`);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'VALIDATION_FAILED') {
          throw error;
        }
        const problems = (error.details?.problems ?? []) as ImportProblem[];
        const where = format === 'json' ? 'row' : 'line';
        fail(
          problems.length > 0
            ? `nothing imported:\n  ${problems.map((problem) => `${where} ${problem.line}: ${problem.message}`).join('\n  ')}`
            : `cannot read ${file}: ${error.message.replace(/^Nothing was imported: /, '')}`,
        );
      }
    });
  return exitsCommand;
}
