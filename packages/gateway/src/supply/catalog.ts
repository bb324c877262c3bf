import type { Targeting } from '@bytegate/contracts/targeting';

/**
 * What a wholesale network's catalog says of one country: the states, cities, postal codes and ASNs it
 * lists there (names lower-case, postal codes upper-case). An empty set means "not listed for this
 * country": unknown, so any is tried.
 */
export interface CatalogCountry {
  states: ReadonlySet<string>;
  cities: ReadonlySet<string>;
  zips: ReadonlySet<string>;
  asns: ReadonlySet<number>;
}

/** A network's catalog by country code. Empty: unknown, the network is tried for every place. */
export type SourceCatalog = ReadonlyMap<string, CatalogCountry>;

/** One place of a catalog as stored (null where it names no state, city, postal code or ASN). */
export interface CatalogPlaceRow {
  country: string;
  state: string | null;
  city: string | null;
  zip: string | null;
  asn: number | null;
}

/** A catalog from its places. */
export function buildCatalog(rows: Iterable<CatalogPlaceRow>): SourceCatalog {
  const catalog = new Map<
    string,
    { states: Set<string>; cities: Set<string>; zips: Set<string>; asns: Set<number> }
  >();
  for (const row of rows) {
    let country = catalog.get(row.country);
    if (!country) {
      country = { states: new Set(), cities: new Set(), zips: new Set(), asns: new Set() };
      catalog.set(row.country, country);
    }
    if (row.state) {
      country.states.add(row.state.toLowerCase());
    }
    if (row.city) {
      country.cities.add(row.city.toLowerCase());
    }
    if (row.zip) {
      country.zips.add(row.zip.toUpperCase());
    }
    if (row.asn !== null) {
      country.asns.add(row.asn);
    }
  }
  return catalog;
}

/** Whether one dimension of a country admits the targeted values: unlisted there, or one of them listed. */
function admits<T>(listed: ReadonlySet<T>, wanted: readonly T[] | undefined): boolean {
  if (!wanted || wanted.length === 0 || listed.size === 0) {
    return true;
  }
  for (const value of wanted) {
    if (listed.has(value)) {
      return true;
    }
  }
  return false;
}

function countryServes(country: CatalogCountry, targeting: Targeting): boolean {
  return (
    admits(country.states, targeting.states) &&
    admits(country.cities, targeting.cities) &&
    admits(country.zips, targeting.zips) &&
    admits(country.asns, targeting.asns)
  );
}

/**
 * Whether a network may serve a connection by its catalog: an empty (or absent) catalog is unknown and
 * may; otherwise one of the targeted countries (any not excluded, when none is targeted) must be listed,
 * with the targeted states, cities, postal codes and ASNs where the catalog lists those for it. A
 * catalog that lists a country without its cities is tried for any city there.
 */
export function catalogServes(catalog: SourceCatalog | undefined, targeting: Targeting): boolean {
  if (!catalog || catalog.size === 0) {
    return true;
  }
  const countries = targeting.countries;
  if (countries && countries.length > 0) {
    for (const code of countries) {
      const country = catalog.get(code);
      if (country && countryServes(country, targeting)) {
        return true;
      }
    }
    return false;
  }
  for (const [code, country] of catalog) {
    if (!targeting.excludeCountries?.includes(code) && countryServes(country, targeting)) {
      return true;
    }
  }
  return false;
}

/**
 * The targeting as a network with this catalog is asked for it: of several targeted countries, only those
 * the catalog lists (with the targeted states, cities, postal codes and ASNs where it lists those), in
 * the customer's order. So the vendor's username names only places the network serves: all of them for a
 * grammar that takes a list (Webshare), and for one that takes a single country, the one the adapter
 * picks among them (stable for a session). Unchanged for an empty catalog, one country or none, or when
 * the catalog lists none of them (the routing never sends that connection there).
 */
export function targetingForCatalog(catalog: SourceCatalog | undefined, targeting: Targeting): Targeting {
  const countries = targeting.countries;
  if (!catalog || catalog.size === 0 || !countries || countries.length < 2) {
    return targeting;
  }
  const listed = countries.filter((code) => {
    const country = catalog.get(code);
    return country !== undefined && countryServes(country, targeting);
  });
  return listed.length === 0 || listed.length === countries.length
    ? targeting
    : { ...targeting, countries: listed };
}
