import type { CatalogResponse } from '@bytegate/contracts/admin-catalog';
import { countryName } from '@bytegate/contracts/countries';
import { summarizeCatalog } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { resolveSource } from './import-catalog.ts';

/**
 * A source's catalog country by country (by English name): how many places each lists, its states,
 * cities and ASNs, what the vendor's list holds and what only traffic found, and the cities traffic saw
 * most. Our own exits have an empty one (their places are the exits').
 */
export async function getCatalog(
  ctx: ServiceContext,
  props: { source: string | { id: string } },
): Promise<CatalogResponse> {
  const source = await resolveSource(ctx, props.source);
  const { countries, topCities } = await summarizeCatalog(ctx.db, { sourceId: source.id });
  const citiesOf = new Map<string, CatalogResponse['countries'][number]['topCities']>();
  for (const city of topCities) {
    const list = citiesOf.get(city.country) ?? [];
    list.push({ name: city.name, exitsSeen: Number(city.exitsSeen) });
    citiesOf.set(city.country, list);
  }
  const presented = countries
    .map((row) => ({
      code: row.country,
      name: countryName(row.country),
      entries: row.entries,
      states: row.states,
      cities: row.cities,
      asns: row.asns,
      imported: row.imported,
      learned: row.entries - row.imported,
      exitsSeen: Number(row.exitsSeen),
      lastSeenAt: row.lastSeenAt === null ? null : new Date(row.lastSeenAt).toISOString(),
      topCities: citiesOf.get(row.country) ?? [],
    }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const sum = (pick: (country: (typeof presented)[number]) => number) =>
    presented.reduce((total, country) => total + pick(country), 0);
  return {
    source: { id: source.id, name: source.name, kind: source.kind },
    totals: {
      entries: sum((country) => country.entries),
      countries: presented.length,
      cities: sum((country) => country.cities),
      imported: sum((country) => country.imported),
      learned: sum((country) => country.learned),
      exitsSeen: sum((country) => country.exitsSeen),
    },
    countries: presented,
  };
}
