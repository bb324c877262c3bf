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
 * SOAX (helpcenter.soax.com "Sticky sessions", "Session parameters"; developers.soax.com "Error codes"):
 * `package-<id>` followed by `-country-us` (lower-case, one country), `-region-...`, `-city-...`,
 * `-sessionid-<string>` and `-sessionlength-<seconds>` (up to 86400; 0 would mean a new IP each request);
 * the password is the package key. Multi-word names take `_` for spaces, as the newer docs write them
 * (`new_york`; the older help center wrote `new+york`). The docs name an ISP rule (by provider name) but
 * no ASN or ZIP parameter.
 */

const SESSION_LENGTH = 12;
const MIN_SESSION_SECONDS = 1;
const MAX_SESSION_SECONDS = 86_400;

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
  const state = targeting.states?.find((name) => spellPlace(name, '_') === null);
  if (state !== undefined) {
    return `region "${state}" (SOAX spells places in letters and "_")`;
  }
  const city = targeting.cities?.find((name) => spellPlace(name, '_') === null);
  return city === undefined ? null : `city "${city}" (SOAX spells places in letters and "_")`;
}

export const soax: GrammarAdapter = {
  name: 'soax',
  cannotExpress,
  credentials(account, targeting, session) {
    assertExpressible(soax, targeting);
    const place = pickLocation(targeting, session);
    const parts = [withPrefix('package-', account.username)];
    if (place.country !== undefined) {
      parts.push('country', place.country.toLowerCase());
    }
    if (place.state !== undefined) {
      parts.push('region', spellPlace(place.state, '_') as string);
    }
    if (place.city !== undefined) {
      parts.push('city', spellPlace(place.city, '_') as string);
    }
    if (session !== undefined) {
      parts.push('sessionid', vendorSessionId(session.key, LOWER_ALNUM, SESSION_LENGTH));
      parts.push(
        'sessionlength',
        String(clamp(session.minutes * 60, MIN_SESSION_SECONDS, MAX_SESSION_SECONDS)),
      );
    }
    return { username: parts.join('-'), password: account.password };
  },
  // SOAX's own refusals carry X-SOAX-Error: ERR_* validation codes with 400, AUTH_FAILED and
  // ERR_AUTH_REQUIRED with 407, which is what the common reading makes of those statuses. Its codes for
  // "no node for this target" and "out of traffic" are not in the stored docs.
  classify: classifyCommon,
};
