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
  MIXED_ALNUM,
  pickLocation,
  spellPlace,
  vendorSessionId,
} from './shared.ts';

/**
 * IPRoyal residential (docs.iproyal.com "Location", "Rotation", "Response codes"): the parameters go in the
 * PASSWORD, each as `_key-value`: `_country-us` (one country), `_state-...` (US), `_city-...`,
 * `_session-<exactly 8 alphanumerics>` and `_lifetime-<n><s|m|h|d>` (one unit, 1 s to 7 d). The username
 * is the account's, unchanged. Since `_` separates the parameters, a multi-word place is written without
 * its spaces ("newyork"). No ZIP or ASN parameter (`_isp-` takes a provider's name, not a number).
 */

const SESSION_LENGTH = 8;
const MAX_LIFETIME_MINUTES = 7 * 24 * 60;

/** Minutes as IPRoyal's lifetime: one unit, the largest that divides it exactly. */
export function lifetime(minutes: number): string {
  const clamped = clamp(minutes, 1, MAX_LIFETIME_MINUTES);
  if (clamped % 1440 === 0) {
    return `${clamped / 1440}d`;
  }
  return clamped % 60 === 0 ? `${clamped / 60}h` : `${clamped}m`;
}

function cannotExpress(targeting: Targeting): string | null {
  const reason = exclusionReason(targeting) ?? combinationReason(targeting);
  if (reason !== null) {
    return reason;
  }
  if (isSet(targeting.zips)) {
    return 'ZIP targeting';
  }
  if (isSet(targeting.asns)) {
    return 'ASN targeting';
  }
  if (isSet(targeting.states)) {
    if (!isUsOnly(targeting)) {
      return 'state targeting outside the US';
    }
    const state = targeting.states.find((name) => spellPlace(name, '') === null);
    if (state !== undefined) {
      return `state "${state}" (IPRoyal spells places in letters only)`;
    }
  }
  const city = targeting.cities?.find((name) => spellPlace(name, '') === null);
  return city === undefined ? null : `city "${city}" (IPRoyal spells places in letters only)`;
}

export const iproyal: GrammarAdapter = {
  name: 'iproyal',
  cannotExpress,
  credentials(account, targeting, session) {
    assertExpressible(iproyal, targeting);
    const place = pickLocation(targeting, session);
    let password = account.password;
    if (place.country !== undefined) {
      password += `_country-${place.country.toLowerCase()}`;
    }
    if (place.state !== undefined) {
      password += `_state-${spellPlace(place.state, '')}`;
    }
    if (place.city !== undefined) {
      password += `_city-${spellPlace(place.city, '')}`;
    }
    if (session !== undefined) {
      password += `_session-${vendorSessionId(session.key, MIXED_ALNUM, SESSION_LENGTH)}`;
      password += `_lifetime-${lifetime(session.minutes)}`;
    }
    return { username: account.username, password };
  },
  classify(refusal) {
    // IPRoyal answers with a status only: 503 "No Exits Available" when nothing matches the filters,
    // 504 when the exit it chose could not connect, 500 for an internal failure.
    if (refusal.protocol === 'http' && refusal.status === 503) {
      return 'no-exit';
    }
    return classifyCommon(refusal);
  },
};
