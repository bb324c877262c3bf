import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type MmdbNetwork, type MmdbValue, mmdbUint32, parseNetwork, writeMmdb } from './mmdb-writer.ts';

/**
 * A small city database and ASN database for tests that need addresses located (loopback exit agents on
 * 127.0.0.x, say): real files the server reads through GEOIP_CITY_DB and GEOIP_ASN_DB, or in-process
 * through useGeoipDatabases (apps/server/src/geoip/geoip-databases.ts). Node built-ins only, so that tests
 * of any package can import it.
 */

export interface TestPlace {
  /** `127.0.0.11`, `127.0.1.0/24`, `2001:db8::/48`. */
  network: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  state?: string;
  city?: string;
  zip?: string;
  asn?: number;
  asnName?: string;
}

export interface TestGeoipOptions {
  /** `maxmind`: GeoIP2/GeoLite2-City's records (the default); `ip-location-db`: the npm package's. */
  cityShape?: 'maxmind' | 'ip-location-db';
  /** `csv`: @ip-location-db/asn's text CSV (the default); `mmdb`: GeoLite2-ASN's. */
  asnFormat?: 'csv' | 'mmdb';
  /** 4: IPv4-only trees; 6 (the default): IPv6 with IPv4 mapped, as GeoLite2. */
  ipVersion?: 4 | 6;
}

function cityRecord(place: TestPlace, shape: 'maxmind' | 'ip-location-db'): MmdbValue {
  if (shape === 'ip-location-db') {
    return {
      city: place.city ?? '',
      country_code: place.country,
      postcode: place.zip ?? '',
      state1: place.state ?? '',
      state2: '',
    };
  }
  return {
    ...(place.city ? { city: { names: { en: place.city } } } : {}),
    continent: { code: 'NA', names: { en: 'North America' } },
    country: { iso_code: place.country, names: { en: place.country } },
    ...(place.zip ? { postal: { code: place.zip } } : {}),
    ...(place.state ? { subdivisions: [{ iso_code: 'XX', names: { en: place.state } }] } : {}),
  };
}

/** A network's first and last address as text (IPv6 in full groups). */
export function networkRange(network: string): { first: string; last: string } {
  const { bytes, prefixLength } = parseNetwork(network);
  const last = Uint8Array.from(bytes);
  for (let bit = prefixLength; bit < bytes.length * 8; bit++) {
    last[bit >> 3] = (last[bit >> 3] as number) | (1 << (7 - (bit & 7)));
  }
  const text = (value: Uint8Array) =>
    value.length === 4
      ? [...value].join('.')
      : Array.from({ length: 8 }, (_, i) =>
          (((value[i * 2] as number) << 8) | (value[i * 2 + 1] as number)).toString(16),
        ).join(':');
  return { first: text(bytes), last: text(last) };
}

const csvField = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * Writes `city.mmdb` and `asn.csv` (or `asn.mmdb`) into `dir` for the places given, and answers their
 * paths. A place without an ASN is left out of the ASN database.
 */
export async function writeTestGeoipDatabases(
  dir: string,
  places: TestPlace[],
  options: TestGeoipOptions = {},
): Promise<{ cityDb: string; asnDb: string }> {
  const ipVersion = options.ipVersion ?? 6;
  const cityDb = join(dir, 'city.mmdb');
  await writeMmdb(
    cityDb,
    places.map((place) => ({
      network: place.network,
      data: cityRecord(place, options.cityShape ?? 'maxmind'),
    })),
    {
      ipVersion,
      databaseType: options.cityShape === 'ip-location-db' ? `city ipv${ipVersion}` : 'GeoLite2-City',
      languages: ['en'],
    },
  );
  const withAsn = places.filter((place) => place.asn !== undefined);
  if (options.asnFormat === 'mmdb') {
    const asnDb = join(dir, 'asn.mmdb');
    const networks: MmdbNetwork[] = withAsn.map((place) => ({
      network: place.network,
      data: {
        autonomous_system_number: mmdbUint32(place.asn as number),
        ...(place.asnName ? { autonomous_system_organization: place.asnName } : {}),
      },
    }));
    await writeMmdb(asnDb, networks, { ipVersion, databaseType: 'GeoLite2-ASN' });
    return { cityDb, asnDb };
  }
  const asnDb = join(dir, 'asn.csv');
  const lines = withAsn
    .map((place) => ({ place, range: networkRange(place.network) }))
    .map(({ place, range }) =>
      [range.first, range.last, String(place.asn), csvField(place.asnName ?? '')].join(','),
    );
  await writeFile(asnDb, `${lines.join('\n')}\n`);
  return { cityDb, asnDb };
}
