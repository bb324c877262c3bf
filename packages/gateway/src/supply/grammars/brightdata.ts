import { US_STATE_CODES } from '@bytegate/contracts/countries';
import type { Targeting } from '@bytegate/contracts/targeting';
import type { GrammarAdapter } from '../grammar.ts';
import {
  assertExpressible,
  classifyCommon,
  combinationReason,
  exclusionReason,
  isSet,
  isUsOnly,
  LOWER_ALNUM,
  pickLocation,
  spellPlace,
  vendorSessionId,
} from './shared.ts';

/**
 * Bright Data (docs.brightdata.com, "Geolocation targeting", "Proxy and IP rotation control", "Proxy errors"):
 * the zone's username `brd-customer-<id>-zone-<zone>` (the account's username as the dashboard shows it)
 * followed by `-country-us` (lower-case, one country: several are a zone setting, not a parameter),
 * `-state-ny` (two-letter lower-case code, residential), `-city-sanfrancisco` (lower-case, no spaces),
 * `-zip-37501`, `-asn-56386` and `-session-<alphanumerics>` (anything else in a session id is an error).
 * There is no session-length parameter: a session lasts while it is used.
 */

const KNOWN_CODES = new Set(Object.values(US_STATE_CODES));

/** A state name ("new york") or code ("ny") as Bright Data's code, or null. */
const stateCode = (state: string): string | null =>
  US_STATE_CODES[state] ?? (KNOWN_CODES.has(state) ? state : null);

const SESSION_LENGTH = 16;

function cannotExpress(targeting: Targeting): string | null {
  const reason = exclusionReason(targeting) ?? combinationReason(targeting);
  if (reason !== null) {
    return reason;
  }
  if (isSet(targeting.states)) {
    if (!isUsOnly(targeting)) {
      return 'state targeting outside the US';
    }
    const unknown = targeting.states.find((state) => stateCode(state) === null);
    if (unknown !== undefined) {
      return `state "${unknown}" (Bright Data takes US state codes)`;
    }
  }
  const city = targeting.cities?.find((name) => spellPlace(name, '') === null);
  if (city !== undefined) {
    return `city "${city}" (Bright Data spells cities in letters only)`;
  }
  if (isSet(targeting.zips)) {
    if (!isUsOnly(targeting)) {
      return 'ZIP targeting outside the US';
    }
    const zip = targeting.zips.find((code) => !/^\d{5}$/.test(code));
    if (zip !== undefined) {
      return `ZIP code "${zip}" (Bright Data takes 5-digit US ZIP codes)`;
    }
  }
  return null;
}

export const brightdata: GrammarAdapter = {
  name: 'brightdata',
  cannotExpress,
  credentials(account, targeting, session) {
    assertExpressible(brightdata, targeting);
    const place = pickLocation(targeting, session);
    const parts = [account.username];
    if (place.country !== undefined) {
      parts.push('country', place.country.toLowerCase());
    }
    if (place.state !== undefined) {
      parts.push('state', stateCode(place.state) as string);
    }
    if (place.city !== undefined) {
      parts.push('city', spellPlace(place.city, '') as string);
    }
    if (place.zip !== undefined) {
      parts.push('zip', place.zip);
    }
    if (place.asn !== undefined) {
      parts.push('asn', String(place.asn));
    }
    if (session !== undefined) {
      parts.push('session', vendorSessionId(session.key, LOWER_ALNUM, SESSION_LENGTH));
    }
    return { username: parts.join('-'), password: account.password };
  },
  classify(refusal) {
    if (refusal.protocol === 'http') {
      // The proxy's own errors carry x-brd-err-code (and, since 2025, an RFC 9209 Proxy-Status with the
      // same code in its details): "no peers" means nothing matches the targeting now.
      const said = [
        refusal.headers['x-brd-err-code'],
        refusal.headers['x-brd-error'],
        refusal.headers['proxy-status'],
      ]
        .filter((text) => text !== undefined)
        .join(' ');
      if (refusal.status === 502 && /no[ _-]?peers?|reserve_no_result/i.test(said)) {
        return 'no-exit';
      }
      // A 402 with a policy code refuses this request's target or method (residential bad_endpoint), not our balance.
      if (refusal.status === 402 && /^policy_/.test(refusal.headers['x-brd-err-code'] ?? '')) {
        return 'failed';
      }
    }
    return classifyCommon(refusal);
  },
};
