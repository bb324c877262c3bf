import { GRAMMAR_NAMES } from '@bytegate/gateway';
import { Command } from 'commander';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { maskEndpointUrl } from '../services/supply/source-input.ts';
import { sourceProbeText } from '../services/supply/source-probe-text.ts';
import { addSource, changeSource, listSourcesWithFigures } from '../services/supply/sources.ts';
import type { CliContext } from './context.ts';
import { catalogCommand } from './sources-catalog.ts';
import { addReconcileCommands } from './sources-reconcile.ts';

const GB = 1024 ** 3;

/** Bytes as GB with three decimals (what the figures are priced in). */
const gigabytes = (bytes: number) => (bytes / GB).toFixed(3);
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * `bytegate sources`: the pools' sources of supply (our own exits, wholesale networks) from the command
 * line, through the same use cases as the console: every change is audited (actor `cli`), and a running
 * gateway routes by it within a second.
 */
export function sourcesCommand(cli: CliContext): Command {
  const sources = new Command('sources').description(
    "Manage where each pool's traffic goes out: our own exits and wholesale networks (every change is audited)",
  );

  sources
    .command('list')
    .description(
      'List every source with its state, weight, cost, alarm, last probe and the last 7 days of traffic',
    )
    .option('--days <n>', 'how many days of figures', '7')
    .action(async (options: { days: string }) => {
      const days = Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > 90) {
        cli.fail('--days must be a whole number from 1 to 90');
        return;
      }
      const rows = await cli.withServices((ctx) => listSourcesWithFigures(ctx, { days }));
      cli.console.table(
        rows.map(({ row, probe, carriedBytes, billedBytes, costCents, connects, failures, connectMs }) => ({
          name: row.name,
          pool: row.poolType,
          kind: row.kind,
          grammar: row.grammar ?? '',
          url: maskEndpointUrl(row.endpointUrl) ?? '',
          state: row.state,
          weight: row.weight,
          'cost/GB': dollars(row.costPerGbCents),
          'carried GB': gigabytes(carriedBytes),
          'billed GB': gigabytes(billedBytes),
          cost: dollars(costCents),
          success: connects + failures > 0 ? `${((100 * connects) / (connects + failures)).toFixed(1)}%` : '',
          'connect ms': connectMs ?? '',
          'last probe': sourceProbeText(row.kind, probe),
          alarm: row.alarm ?? '',
        })),
      );
    });

  sources
    .command('add')
    .description("Add a source: a wholesale network (--kind network, the default) or a pool's own exits")
    .requiredOption('--name <name>', 'a name people recognise')
    .requiredOption('--pool <pool>', 'datacenter, residential or mobile')
    .option('--kind <kind>', 'network (a vendor endpoint) or exits (our own exits of the pool)', 'network')
    .option('--grammar <grammar>', `how the vendor spells targeting: ${GRAMMAR_NAMES.join(', ')}`)
    .option(
      '--template <template>',
      "the template grammar's username, e.g. '{user}[-country-{country:lower}][-session-{session}]'",
    )
    .option('--password-template <template>', "the template grammar's password (default '{password}')")
    .option(
      '--url <url>',
      "the network's endpoint with the account: http://USER:PASS@HOST:PORT, https://... or socks5://...",
    )
    .option('--cost-per-gb <dollars>', 'what a GB through it costs us, e.g. 1.20', '0')
    .option('--weight <n>', 'its share of new connections among the sources that can serve them', '100')
    .option('--state <state>', 'active, draining or off', 'active')
    .option('--reason <text>', 'why, kept in the audit log')
    .action(async ({ reason, costPerGb, ...options }: Record<string, string | undefined>) => {
      const row = await cli.withServices((ctx) =>
        addSource(ctx, { input: { ...options, costPerGb }, reason, actor: CLI_ACTOR }),
      );
      cli.console.log(
        `Added source ${row.name} (${row.id}): ${row.kind} for the ${row.poolType} pool, ${row.state}.`,
      );
    });

  sources
    .command('set')
    .description("Change a source's weight, state, cost or endpoint")
    .argument('<source>', 'its name or id')
    .option('--weight <n>')
    .option('--state <state>', 'active, draining or off')
    .option('--cost-per-gb <dollars>')
    .option('--url <url>', 'a new endpoint (the account rotated its password)')
    .option('--clear-alarm', 'the alarm was handled')
    .option('--reason <text>', 'why, kept in the audit log')
    .action(async (source: string, { reason, ...settings }: Record<string, string | boolean | undefined>) => {
      if (Object.values(settings).every((value) => value === undefined)) {
        cli.fail('nothing to change: give --weight, --state, --cost-per-gb, --url or --clear-alarm');
        return;
      }
      const row = await cli.withServices((ctx) =>
        changeSource(ctx, {
          source,
          settings: settings as Record<string, string | undefined> & { clearAlarm?: boolean },
          reason: typeof reason === 'string' ? reason : undefined,
          actor: CLI_ACTOR,
        }),
      );
      cli.console.log(
        `Source ${row.name}: ${row.state}, weight ${row.weight}, ${dollars(row.costPerGbCents)} a GB.`,
      );
    });

  sources
    .command('disable')
    .description('Switch a source off: the gateway stops sending it connections within a second')
    .argument('<source>', 'its name or id')
    .requiredOption('--reason <text>', 'why, kept in the audit log')
    .action(async (source: string, options: { reason: string }) => {
      const row = await cli.withServices((ctx) =>
        changeSource(ctx, { source, settings: { state: 'off' }, reason: options.reason, actor: CLI_ACTOR }),
      );
      cli.console.log(`Source ${row.name} is off.`);
    });
  addReconcileCommands(sources, cli);

  sources.addCommand(catalogCommand(cli));
  return sources;
}
