import type { Targeting } from '@bytegate/contracts/targeting';
import type { GrammarAdapter } from '../grammar.ts';
import {
  assertExpressible,
  clamp,
  classifyCommon,
  combinationReason,
  exclusionReason,
  isSet,
  LOWER_ALNUM,
  pickLocation,
  spellPlace,
  vendorSessionId,
  withPrefix,
} from './shared.ts';

/**
 * Decodo, formerly Smartproxy (help.decodo.com "Custom sticky sessions", "Session types"): `user-USER`
 * followed by `-country-us` (one country), `-city-new_york` (spaces as `_`), `-session-<id>` and
 * `-sessionduration-<minutes>` (1..1440, default 10). The stored docs show no state, ZIP or ASN parameter,
 * so those go to another source. Decodo documents no error codes of its own: the common reading applies.
 */

const SESSION_LENGTH = 12;
const MIN_DURATION = 1;
const MAX_DURATION = 1440;

function cannotExpress(targeting: Targeting): string | null {
  const reason = exclusionReason(targeting) ?? combinationReason(targeting);
  if (reason !== null) {
    return reason;
  }
  if (isSet(targeting.states)) {
    return 'state targeting';
  }
  if (isSet(targeting.zips)) {
    return 'ZIP targeting';
  }
  if (isSet(targeting.asns)) {
    return 'ASN targeting';
  }
  const city = targeting.cities?.find((name) => spellPlace(name, '_') === null);
  return city === undefined ? null : `city "${city}" (Decodo spells cities in letters and "_")`;
}

export const decodo: GrammarAdapter = {
  name: 'decodo',
  cannotExpress,
  credentials(account, targeting, session) {
    assertExpressible(decodo, targeting);
    const place = pickLocation(targeting, session);
    const parts = [withPrefix('user-', account.username)];
    if (place.country !== undefined) {
      parts.push('country', place.country.toLowerCase());
    }
    if (place.city !== undefined) {
      parts.push('city', spellPlace(place.city, '_') as string);
    }
    if (session !== undefined) {
      parts.push('session', vendorSessionId(session.key, LOWER_ALNUM, SESSION_LENGTH));
      parts.push('sessionduration', String(clamp(session.minutes, MIN_DURATION, MAX_DURATION)));
    }
    return { username: parts.join('-'), password: account.password };
  },
  classify: classifyCommon,
};
