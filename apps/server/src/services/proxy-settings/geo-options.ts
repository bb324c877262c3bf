import { countryName } from '@bytegate/contracts/countries';
import type { GeoOption, ProxySettings, ProxySettingsField } from '@bytegate/contracts/proxy-settings';
import { splitList } from '@bytegate/contracts/proxy-settings';
import { parseAsn, toPlaceName } from '@bytegate/contracts/targeting';
import type { Executor } from '@bytegate/db';
import {
  type GeoFilter,
  listAsnsWithExits,
  listCatalogAsns,
  listCatalogCities,
  listCatalogCountries,
  listCatalogStates,
  listCatalogZipcodes,
  listCitiesWithExits,
  listCountriesWithExits,
  listStatesWithExits,
  listZipcodesWithExits,
} from '@bytegate/db/queries';
import { type CatalogDimension, catalogSourcesOf } from './catalog-sources.ts';

// Each list is the union of what the pool's own exits offer and what the catalogs of its wholesale
// networks list (those taking connections, and only where their grammar can spell the field), each
// value once.

const byName = (a: GeoOption, b: GeoOption) =>
  a.name.localeCompare(b.name, 'en') || a.code.localeCompare(b.code);

export { countryName };

/**
 * The option request's fields as the inventory stores them: codes upper-case, names lower-case, ASNs
 * as numbers (what is not an ASN narrows nothing). Codes are not checked here: an unknown one only
 * finds no options.
 */
export function geoFilter(poolType: GeoFilter['poolType'], body: Record<string, unknown>): GeoFilter {
  return {
    poolType,
    countries: splitList(body.countries).map((code) => code.toUpperCase()),
    states: splitList(body.states).map(toPlaceName),
    cities: splitList(body.cities).map(toPlaceName),
    zipcodes: splitList(body.zipcodes).map((zip) => zip.toUpperCase()),
    asns: splitList(body.asns).flatMap((text) => {
      const asn = parseAsn(text);
      return asn.ok ? [asn.value] : [];
    }),
  };
}

/** Countries with at least one active exit in the pool, or listed by one of its networks, by name. */
export async function countryOptions(db: Executor, filter: GeoFilter): Promise<GeoOption[]> {
  const networks = await catalogSourcesOf(db, filter.poolType);
  const [own, listed] = await Promise.all([
    listCountriesWithExits(db, { poolType: filter.poolType }),
    listCatalogCountries(db, { sourceIds: networks.ids }),
  ]);
  return [...new Set([...own, ...listed])].map((code) => ({ code, name: countryName(code) })).sort(byName);
}

/** The networks whose catalogs may add to a list of the chosen countries. */
async function listingSources(db: Executor, filter: GeoFilter, field: CatalogDimension) {
  return (await catalogSourcesOf(db, filter.poolType)).spelling(field, filter.countries ?? []);
}

/** States of the chosen countries (none until a country is chosen), narrowed by the other fields. */
export async function stateOptions(db: Executor, filter: GeoFilter): Promise<GeoOption[]> {
  if (!filter.countries?.length) {
    return [];
  }
  const sourceIds = await listingSources(db, filter, 'states');
  const rows = [
    ...(await listStatesWithExits(db, filter)),
    ...(await listCatalogStates(db, { sourceIds, filter })),
  ];
  return uniqueByCode(rows.map((row) => ({ code: (row.state ?? '').toLowerCase(), name: row.state ?? '' })));
}

export async function cityOptions(db: Executor, filter: GeoFilter): Promise<GeoOption[]> {
  if (!filter.countries?.length) {
    return [];
  }
  const sourceIds = await listingSources(db, filter, 'cities');
  const rows = [
    ...(await listCitiesWithExits(db, filter)),
    ...(await listCatalogCities(db, { sourceIds, filter })),
  ];
  return uniqueByCode(rows.map((row) => ({ code: (row.city ?? '').toLowerCase(), name: row.city ?? '' })));
}

export async function asnOptions(db: Executor, filter: GeoFilter): Promise<GeoOption[]> {
  if (!filter.countries?.length) {
    return [];
  }
  const sourceIds = await listingSources(db, filter, 'asns');
  const rows = [
    ...(await listAsnsWithExits(db, filter)),
    ...(await listCatalogAsns(db, { sourceIds, filter })),
  ];
  return uniqueByCode(rows.map((row) => ({ code: String(row.asn), name: row.asnName ?? `AS${row.asn}` })));
}

export async function zipcodeOptions(db: Executor, filter: GeoFilter): Promise<GeoOption[]> {
  if (!filter.countries?.length) {
    return [];
  }
  const sourceIds = await listingSources(db, filter, 'zipcodes');
  const rows = [
    ...(await listZipcodesWithExits(db, filter)),
    ...(await listCatalogZipcodes(db, { sourceIds, filter })),
  ];
  return uniqueByCode(
    rows.map((row) => ({
      code: (row.zip ?? '').toUpperCase(),
      name: row.city ? `${row.city}` : (row.zip ?? ''),
    })),
  ).sort((a, b) => a.code.localeCompare(b.code, 'en', { numeric: true }));
}

function uniqueByCode(options: GeoOption[]): GeoOption[] {
  const seen = new Map<string, GeoOption>();
  for (const option of options) {
    if (option.code && !seen.has(option.code)) {
      seen.set(option.code, option);
    }
  }
  return [...seen.values()].sort(byName);
}

/**
 * What a saved targeting asks for that the pool's inventory does not offer: the message to refuse it
 * with, or null. Countries must have exits; states, cities, postal codes and ASNs must exist within the
 * chosen countries. Exclusions may name anything well-formed.
 */
export async function findUnknownTargeting(
  db: Executor,
  poolType: GeoFilter['poolType'],
  settings: ProxySettings,
  poolName: string,
): Promise<{ field: ProxySettingsField; message: string } | null> {
  if (settings.countries.length > 0) {
    const offered = new Set((await countryOptions(db, { poolType })).map((option) => option.code));
    const missing = settings.countries.filter((code) => !offered.has(code));
    if (missing.length > 0) {
      return {
        field: 'countries',
        message: `No ${poolName} exits in ${missing.join(', ')}: choose countries from the list`,
      };
    }
  }
  const within = { poolType, countries: settings.countries };
  const checks: Array<[ProxySettingsField, string, string[], () => Promise<GeoOption[]>]> = [
    ['states', 'states', settings.states, () => stateOptions(db, within)],
    ['cities', 'cities', settings.cities, () => cityOptions(db, within)],
    ['zipcodes', 'zipcodes', settings.zipcodes, () => zipcodeOptions(db, within)],
    ['asns', 'ASNs', settings.asns.map(String), () => asnOptions(db, within)],
  ];
  for (const [field, label, wanted, load] of checks) {
    if (wanted.length === 0) {
      continue;
    }
    const offered = new Set((await load()).map((option) => option.code));
    const missing = wanted.filter((value) => !offered.has(value));
    if (missing.length > 0) {
      return { field, message: `Not offered in the chosen countries (${label}): ${missing.join(', ')}` };
    }
  }
  return null;
}
