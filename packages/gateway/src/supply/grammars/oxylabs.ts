import type { Targeting } from '@bytegate/contracts/targeting';
import type { GrammarAdapter } from '../grammar.ts';
import {
  assertExpressible,
  clamp,
  classifyCommon,
  combinationReason,
  exclusionReason,
  isSet,
  isUsOnly,
  LOWER_ALNUM,
  pickLocation,
  spellPlace,
  vendorSessionId,
  withPrefix,
} from './shared.ts';

/**
 * Oxylabs residential (developers.oxylabs.io, "Making requests", "Location settings", "Session control",
 * "Response codes"): `customer-USER` followed by `-cc-US` (one country), `-st-us_california` (US states
 * only), `-city-new_york` (spaces as `_`), `-postalcode-90210` (five digits, US only, with cc), `-ASN-21928`
 * (a country and an ASN together apply only the country, so an ASN goes alone), `-sessid-<0-9, A-Z>` and
 * `-sesstime-<minutes>` (1..1440 in the current docs; older ones said 30).
 */

const SESSION_LENGTH = 12;
const MIN_SESSTIME = 1;
const MAX_SESSTIME = 1440;

function cannotExpress(targeting: Targeting): string | null {
  const reason = exclusionReason(targeting) ?? combinationReason(targeting);
  if (reason !== null) {
    return reason;
  }
  if (
    isSet(targeting.asns) &&
    (isSet(targeting.countries) ||
      isSet(targeting.states) ||
      isSet(targeting.cities) ||
      isSet(targeting.zips))
  ) {
    return 'ASN targeting with a location (Oxylabs applies only one of them)';
  }
  if (isSet(targeting.states)) {
    if (!isUsOnly(targeting)) {
      return 'state targeting outside the US';
    }
    const state = targeting.states.find((name) => spellPlace(name, '_') === null);
    if (state !== undefined) {
      return `state "${state}" (Oxylabs spells states in letters and "_")`;
    }
  }
  const city = targeting.cities?.find((name) => spellPlace(name, '_') === null);
  if (city !== undefined) {
    return `city "${city}" (Oxylabs spells cities in letters and "_")`;
  }
  if (isSet(targeting.zips)) {
    if (!isUsOnly(targeting)) {
      return 'ZIP targeting outside the US';
    }
    const zip = targeting.zips.find((code) => !/^\d{5}$/.test(code));
    if (zip !== undefined) {
      return `ZIP code "${zip}" (Oxylabs takes 5-digit US ZIP codes)`;
    }
  }
  return null;
}

export const oxylabs: GrammarAdapter = {
  name: 'oxylabs',
  cannotExpress,
  credentials(account, targeting, session) {
    assertExpressible(oxylabs, targeting);
    const place = pickLocation(targeting, session);
    const parts = [withPrefix('customer-', account.username)];
    if (place.country !== undefined) {
      parts.push('cc', place.country);
    }
    if (place.state !== undefined) {
      parts.push('st', `us_${spellPlace(place.state, '_')}`);
    }
    if (place.city !== undefined) {
      parts.push('city', spellPlace(place.city, '_') as string);
    }
    if (place.zip !== undefined) {
      parts.push('postalcode', place.zip);
    }
    if (place.asn !== undefined) {
      parts.push('ASN', String(place.asn));
    }
    if (session !== undefined) {
      parts.push('sessid', vendorSessionId(session.key, LOWER_ALNUM, SESSION_LENGTH));
      parts.push('sesstime', String(clamp(session.minutes, MIN_SESSTIME, MAX_SESSTIME)));
    }
    return { username: parts.join('-'), password: account.password };
  },
  classify(refusal) {
    if (refusal.protocol === 'http') {
      // Errors of Oxylabs' own carry X-Error-Description; a target's errors do not.
      const description = refusal.headers['x-error-description'] ?? '';
      if (refusal.status === 407 && /traffic limit/i.test(description)) {
        return 'quota';
      }
      if (refusal.status === 525 || (refusal.status === 502 && /exit node not found/i.test(description))) {
        return 'no-exit';
      }
    }
    return classifyCommon(refusal);
  },
};
