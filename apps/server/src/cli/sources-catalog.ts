import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { ImportProblem } from '@bytegate/contracts/admin-exits';
import { Command } from 'commander';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { DomainError } from '../services/domain-error.ts';
import { getCatalog } from '../services/supply/get-catalog.ts';
import { importCatalog } from '../services/supply/import-catalog.ts';
import { type CliContext, resolveFrom } from './context.ts';

const count = (value: number) => value.toLocaleString('en-US');

/**
 * `bytegate sources catalog`: a wholesale network's catalog of places, imported from the vendor's list
 * (audited as `source.catalog.import`) and learned from the exit IPs our traffic got through it.
 */
export function catalogCommand(cli: CliContext): Command {
  const catalog = new Command('catalog').description(
    "A network's catalog of the countries, states, cities and ASNs it serves: the dashboard's option lists and the routing follow it",
  );

  catalog
    .command('import')
    .description(
      "Import the vendor's list of places (CSV with a header line, or JSON); nothing changes if any line is wrong",
    )
    .argument('<source>', "the network's name or id")
    .argument('<file>', 'a .csv (columns country, state, city, zip, asn, asn_name) or .json file')
    .option(
      '--replace',
      'drop the places an earlier import added that this file no longer lists (learned ones stay)',
    )
    .requiredOption('--reason <text>', 'why, kept in the audit log')
    .action(async (source: string, file: string, options: { replace?: boolean; reason: string }) => {
      const format = extname(file).toLowerCase() === '.json' ? 'json' : 'csv';
      let content: string;
      try {
        content = readFileSync(resolveFrom(cli, file), 'utf8');
      } catch (error) {
        cli.fail(`cannot read ${file}: ${(error as Error).message}`);
        return;
      }
      try {
        const done = await cli.withServices((ctx) =>
          importCatalog(ctx, {
            source,
            content,
            format,
            replace: options.replace === true,
            reason: options.reason,
            actor: CLI_ACTOR,
          }),
        );
        cli.console.log(
          `Imported ${count(done.read)} lines into the catalog of ${source}: ${count(done.added)} new places, ${count(done.alreadyListed)} already there${options.replace ? `, ${count(done.dropped)} no longer listed dropped` : ''}. It lists ${count(done.entries)} places in ${count(done.countries)} countries.`,
        );
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'VALIDATION_FAILED') {
          throw error;
        }
        const problems = (error.details?.problems ?? []) as ImportProblem[];
        const where = format === 'json' ? 'item' : 'line';
        cli.fail(
          problems.length > 0
            ? `${error.message}:\n  ${problems.map((problem) => `${where} ${problem.line}: ${problem.message}`).join('\n  ')}`
            : error.message,
        );
      }
    });

  catalog
    .command('show')
    .description(
      "Show a network's catalog: places per country, what was imported and learned, the top cities",
    )
    .argument('<source>', "the network's name or id")
    .action(async (source: string) => {
      const shown = await cli.withServices((ctx) => getCatalog(ctx, { source }));
      const { totals } = shown;
      if (totals.entries === 0) {
        cli.console.log(
          `The catalog of ${shown.source.name} is empty: the gateway tries it for every place. Import the vendor's list with \`bytegate sources catalog import\`.`,
        );
        return;
      }
      cli.console.log(
        `${shown.source.name}: ${count(totals.entries)} places in ${count(totals.countries)} countries (${count(totals.imported)} imported, ${count(totals.learned)} learned); ${count(totals.exitsSeen)} exits seen.`,
      );
      cli.console.table(
        shown.countries.map((country) => ({
          country: country.code,
          name: country.name,
          places: country.entries,
          states: country.states,
          cities: country.cities,
          asns: country.asns,
          imported: country.imported,
          learned: country.learned,
          'exits seen': country.exitsSeen,
          'last seen': country.lastSeenAt?.slice(0, 16).replace('T', ' ') ?? '',
          'top cities': country.topCities.map((city) => city.name).join(', '),
        })),
      );
    });
  return catalog;
}
