import type { Executor } from '@bytegate/db';
import { bumpCatalogVersion, type CatalogPlace, learnCatalogPlace } from '@bytegate/db/queries';
import { type ExitLocation, locateExitIp } from '../../geoip/locate-exit-ip.ts';

export interface LearnedLocation {
  location: ExitLocation;
  /** The place the catalog holds for it (country, state, city, ASN: learned places carry no postal code). */
  place: CatalogPlace;
  /** True when the catalog did not list the place before (the gateways read it again). */
  isNewPlace: boolean;
}

/**
 * Teaches a wholesale network's catalog where one exit IP our traffic got through it is: the probe job's
 * echo of its exit address, or an exit IP the vendor reported for a session. The address is located with
 * GeoLite2 (a file lookup: nothing is sent) and its place counted (`exits_seen` + 1, `last_seen_at`); a
 * place new to the catalog is added as learned and the catalog's version moves, so the gateways route by
 * it on their next refresh. Null, with nothing written, for an address that is not public or that GeoIP
 * places in no country.
 *
 * `sourceId` is a wholesale network's (a source that does not exist is a foreign-key error). Postal codes
 * are left out: GeoLite2's are partial in some countries ("RG12" in GB), and one place per
 * city and ASN is what routing and the option lists use.
 */
export async function learnCatalogLocation(
  db: Executor,
  sourceId: string,
  ip: string,
  options: { at?: Date } = {},
): Promise<LearnedLocation | null> {
  const location = await locateExitIp(ip);
  if (location === null) {
    return null;
  }
  const place: CatalogPlace = {
    country: location.country,
    state: location.state,
    city: location.city,
    asn: location.asn,
    asnName: location.asnName,
  };
  const at = options.at ?? new Date();
  const isNewPlace = await db.transaction(async (tx) => {
    const isNew = await learnCatalogPlace(tx, { sourceId, place, at });
    if (isNew) {
      await bumpCatalogVersion(tx, { sourceId });
    }
    return isNew;
  });
  return { location, place, isNewPlace };
}
