import { readFileSync } from 'node:fs';
import { reasonField } from '@bytegate/contracts/admin';
import {
  BYTE_UNITS,
  type ByteUnitsName,
  DATE_ORDERS,
  type DateOrderName,
  DECIMAL_MARKS,
  type DecimalMarkName,
  RECONCILIATION_MAX_DAYS,
  type ReconciliationDay,
  type ReconciliationResponse,
  type VendorUsageProblem,
} from '@bytegate/contracts/admin-supply-reconciliation';
import type { Command } from 'commander';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { DomainError } from '../services/domain-error.ts';
import { getReconciliation, importVendorUsage } from '../services/supply/reconcile-source.ts';
import { type CliContext, resolveFrom } from './context.ts';

const GB = 1024 ** 3;

/**
 * The exit status of `reconcile` and `reconciliation` when a day it printed is flagged (over
 * SUPPLY_RECONCILE_TOLERANCE_PCT), so a cron job can alert: 2, apart from 1, which says the command
 * failed (a refused file, a bad option, an unknown source). 0: every day within the tolerance.
 */
export const EXIT_FLAGGED = 2;

/** Bytes as GB (1024³) with three decimals, signed when asked. */
const gigabytes = (bytes: number, isSigned = false) =>
  `${isSigned && bytes > 0 ? '+' : ''}${(bytes / GB).toFixed(3)}`;
const signedDollars = (cents: number) =>
  `${cents > 0 ? '+' : cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
const signedPct = (pct: number | null) => (pct === null ? '' : `${pct > 0 ? '+' : ''}${pct.toFixed(2)}%`);
const signedBytes = (bytes: number) => `${bytes > 0 ? '+' : ''}${bytes.toLocaleString('en-US')}`;

/** One day as the table prints it. */
function tableRow(day: ReconciliationDay) {
  const compared = day.vendorBytes !== null;
  return {
    day: day.date,
    'ours GB': gigabytes(day.carriedBytes),
    'vendor GB': compared ? gigabytes(day.vendorBytes ?? 0) : '',
    'difference bytes': compared ? signedBytes(day.differenceBytes ?? 0) : '',
    difference: compared ? signedPct(day.differencePct) || 'we carried none' : '',
    cost: compared ? signedDollars(day.differenceCostCents ?? 0) : '',
    flag: day.isFlagged ? 'FLAGGED' : '',
  };
}

/**
 * The table of days, the totals, and the flagged days listed once more; a flagged day makes the
 * command exit with EXIT_FLAGGED.
 */
function printReconciliation(cli: CliContext, answer: ReconciliationResponse): void {
  const { totals, tolerancePct } = answer;
  cli.console.table(answer.days.map(tableRow));
  if (totals.days === 0) {
    cli.console.log(
      `No vendor figures for ${answer.source.name} from ${answer.range.from} to ${answer.range.to}: import its usage export with \`bytegate sources reconcile\`.`,
    );
    return;
  }
  cli.console.log(
    `${totals.days} of ${answer.days.length} days have the vendor's figure: ours ${gigabytes(totals.carriedBytes)} GB, the vendor's ${gigabytes(totals.vendorBytes)} GB, difference ${gigabytes(totals.differenceBytes, true)} GB${totals.differencePct === null ? '' : ` (${signedPct(totals.differencePct)})`}, ${signedDollars(totals.differenceCostCents)} at each day's cost.`,
  );
  const flagged = answer.days.filter((day) => day.isFlagged);
  if (flagged.length === 0) {
    cli.console.log(`No day differs by more than ${tolerancePct}%.`);
    return;
  }
  cli.exitWith(EXIT_FLAGGED);
  cli.console.log(
    `Flagged, over ${tolerancePct}% (SUPPLY_RECONCILE_TOLERANCE_PCT): ${flagged.length} ${flagged.length === 1 ? 'day' : 'days'}`,
  );
  for (const day of flagged) {
    cli.console.log(
      `  ${day.date}: the vendor ${gigabytes(day.vendorBytes ?? 0)} GB, ours ${gigabytes(day.carriedBytes)} GB, ${gigabytes(day.differenceBytes ?? 0, true)} GB (${signedPct(day.differencePct) || 'we carried none'}), ${signedDollars(day.differenceCostCents ?? 0)}`,
    );
  }
}

/**
 * `bytegate sources reconcile` and `bytegate sources reconciliation`: a vendor's usage export imported
 * for a source (audited, actor `cli`), and the source's days against it, printed with the flagged days.
 */
export function addReconcileCommands(sources: Command, cli: CliContext): void {
  sources
    .command('reconcile')
    .description(
      `Import a vendor's usage export (CSV: a date column and a traffic column) for a source and print its days against ours; a day imported again is replaced (audited). Exits with ${EXIT_FLAGGED} when a day is flagged`,
    )
    .argument('<source>', 'its name or id')
    .argument('<file>', 'the CSV, e.g. Date,Traffic (GB) then 2025-03-01,12.5 (UTC days)')
    .requiredOption('--reason <text>', 'why, kept in the audit log')
    .option('--units <units>', 'KB/MB/GB/TB as decimal (1000-based) or binary (1024-based)', 'decimal')
    .option('--date-order <order>', 'read dates like 03/04/2025 month first (mdy) or day first (dmy)')
    .option(
      '--decimal-mark <mark>',
      "the amounts' decimal mark, point (1,234.5) or comma (1.234,5); by default a comma-separated file's is the point, and otherwise the amounts tell",
    )
    .action(
      async (
        source: string,
        file: string,
        options: { reason: string; units: string; dateOrder?: string; decimalMark?: string },
      ) => {
        if (!(BYTE_UNITS as readonly string[]).includes(options.units)) {
          cli.fail('--units must be decimal or binary');
          return;
        }
        if (
          options.dateOrder !== undefined &&
          !(DATE_ORDERS as readonly string[]).includes(options.dateOrder)
        ) {
          cli.fail('--date-order must be mdy or dmy');
          return;
        }
        if (
          options.decimalMark !== undefined &&
          !(DECIMAL_MARKS as readonly string[]).includes(options.decimalMark)
        ) {
          cli.fail('--decimal-mark must be point or comma');
          return;
        }
        const reason = reasonField.safeParse(options.reason);
        if (!reason.success) {
          cli.fail(`--reason: ${reason.error.issues[0]?.message ?? 'is required'}`);
          return;
        }
        let content: string;
        try {
          content = readFileSync(resolveFrom(cli, file), 'utf8');
        } catch (error) {
          cli.fail(`cannot read ${file}: ${(error as Error).message}`);
          return;
        }
        try {
          const { imported, reconciliation } = await cli.withServices((ctx) =>
            importVendorUsage(ctx, {
              source,
              content,
              units: options.units as ByteUnitsName,
              dateOrder: options.dateOrder as DateOrderName | undefined,
              decimalMark: options.decimalMark as DecimalMarkName | undefined,
              reason: reason.data,
              actor: CLI_ACTOR,
            }),
          );
          cli.console.log(
            `Imported ${imported.days} ${imported.days === 1 ? 'day' : 'days'} of ${reconciliation.source.name}'s vendor usage, ${imported.from} to ${imported.to}, from ${imported.rows} rows${imported.skipped > 0 ? ` (${imported.skipped} total rows left out)` : ''}${imported.replaced > 0 ? `; ${imported.replaced} days replaced their earlier figure` : ''}.`,
          );
          printReconciliation(cli, reconciliation);
        } catch (error) {
          if (!(error instanceof DomainError) || error.code !== 'VALIDATION_FAILED') {
            throw error;
          }
          const problems = (error.details?.problems ?? []) as VendorUsageProblem[];
          const message = error.message.replace(/^Nothing was imported: /, '');
          cli.fail(
            problems.length > 0
              ? `nothing imported, ${message}:\n  ${problems.map((problem) => `line ${problem.line}: ${problem.message}`).join('\n  ')}`
              : `nothing imported: ${message}`,
          );
        }
      },
    );

  sources
    .command('reconciliation')
    .description(
      `Print a source's last days against its vendor's imported usage, with the flagged days. Exits with ${EXIT_FLAGGED} when a day is flagged`,
    )
    .argument('<source>', 'its name or id')
    .option('--days <n>', 'how many UTC days, today included', '30')
    .action(async (source: string, options: { days: string }) => {
      const days = Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > RECONCILIATION_MAX_DAYS) {
        cli.fail(`--days must be a whole number from 1 to ${RECONCILIATION_MAX_DAYS}`);
        return;
      }
      printReconciliation(cli, await cli.withServices((ctx) => getReconciliation(ctx, { source, days })));
    });
}
