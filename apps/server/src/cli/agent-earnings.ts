import { listAgentEarnings, listPartnerRates } from '@bytegate/db/queries';
import type { Command } from 'commander';
import { changePartnerRate, readRatePerGb } from '../services/agents/partner-rates.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import type { CliContext } from './context.ts';

const GIB = 1024n ** 3n;
const dollars = (cents: number | bigint) => {
  const whole = BigInt(cents);
  return `$${whole / 100n}.${String(whole % 100n).padStart(2, '0')}`;
};

/**
 * `bytegate agents rates | rate | earnings`: the partners' terms per pool and what their agents earned
 * per day (docs/agents.md). Earnings are kept exact (bytes × cents per GB); shown here in whole cents,
 * rounded down.
 */
export function addEarningsCommands(
  agents: Command,
  cli: CliContext,
  refusing: (work: () => Promise<void>) => Promise<void>,
): void {
  agents
    .command('rates')
    .description('Show what partners earn per GB their agents carry, per pool')
    .action(async () => {
      const rows = await cli.withServices((ctx) => listPartnerRates(ctx.db));
      if (rows.length === 0) {
        cli.console.log(
          'No rates are set: agents earn nothing until one is (bytegate agents rate --pool P --per-gb D).',
        );
        return;
      }
      cli.console.table(
        rows.map((row) => ({
          pool: row.poolType,
          perGb: dollars(row.centsPerGb),
          since: row.updatedAt.toISOString(),
        })),
      );
    });

  agents
    .command('rate')
    .description('Set what partners earn per GB their agents carry in a pool (from now on)')
    .requiredOption('--pool <pool>', 'datacenter, residential or mobile')
    .requiredOption('--per-gb <dollars>', 'dollars per GB, such as 0.35')
    .option('--reason <text>', 'why, kept in the audit log')
    .action(async (options: { pool: string; perGb: string; reason?: string }) => {
      const centsPerGb = readRatePerGb(options.perGb);
      if (centsPerGb === null) {
        cli.fail(`"${options.perGb}" is not an amount of dollars per GB (write it as 0.35)`);
        return;
      }
      await refusing(async () => {
        const { previous } = await cli.withServices((ctx) =>
          changePartnerRate(ctx, {
            poolType: options.pool,
            centsPerGb,
            reason: options.reason,
            actor: CLI_ACTOR,
          }),
        );
        cli.console.log(
          `Partners now earn ${dollars(centsPerGb)} per GB in the ${options.pool} pool${previous === null ? '' : ` (was ${dollars(previous)})`}.`,
        );
      });
    });

  agents
    .command('earnings')
    .description('Show what agents carried and earned per day (UTC), newest first')
    .option('--partner <email>', "one partner's agents only")
    .option('--days <n>', 'how many days back, today included', '30')
    .action(async (options: { partner?: string; days: string }) => {
      const days = Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > 3_660) {
        cli.fail('--days takes a whole number from 1 to 3660');
        return;
      }
      const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
      const from = new Date(today - (days - 1) * 86_400_000);
      const rows = await cli.withServices((ctx) =>
        listAgentEarnings(ctx.db, { from, partnerEmail: options.partner }),
      );
      if (rows.length === 0) {
        cli.console.log('No traffic carried by agents in that time.');
        return;
      }
      cli.console.table(
        rows.map((row) => ({
          day: row.day.toISOString().slice(0, 10),
          partner: row.partnerEmail,
          agent: row.agentName,
          gb: (row.carriedBytes / 1024 ** 3).toFixed(3),
          bytes: row.carriedBytes,
          earned: dollars(row.earnedByteCents / GIB),
        })),
      );
    });
}
