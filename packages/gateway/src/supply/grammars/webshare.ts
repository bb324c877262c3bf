import type { Targeting } from '@bytegate/contracts/targeting';
import type { GrammarAdapter } from '../grammar.ts';
import {
  assertExpressible,
  classifyCommon,
  DIGITS,
  exclusionReason,
  isSet,
  pickOne,
  spellPlace,
  vendorSessionId,
} from './shared.ts';

/**
 * Webshare backbone (apidocs.webshare.io "Proxy Connection"): positional, `{username}-{countries}-{geo}-
 * {session}`: any number of two-letter countries (`-us-fr-de`), `-city_los_angeles` (letters and `_`,
 * residential plans), then a numeric session id for a sticky exit or `-rotate` for a new one each time.
 * No state, ZIP, ASN or session-length parameter. A country list is passed whole, so several countries
 * with a city are fine here: Webshare matches them as we do.
 */

/** Ten digits, not starting with 0, so the id reads the same as a number. */
const SESSION_LENGTH = 10;

function cannotExpress(targeting: Targeting): string | null {
  const reason = exclusionReason(targeting);
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
  return city === undefined ? null : `city "${city}" (Webshare spells cities in letters and "_")`;
}

export const webshare: GrammarAdapter = {
  name: 'webshare',
  cannotExpress,
  credentials(account, targeting, session) {
    assertExpressible(webshare, targeting);
    const parts = [account.username, ...(targeting.countries ?? []).map((code) => code.toLowerCase())];
    if (isSet(targeting.cities)) {
      parts.push(`city_${spellPlace(pickOne(targeting.cities, session, 'city'), '_')}`);
    }
    parts.push(
      session === undefined
        ? 'rotate'
        : vendorSessionId(session.key, DIGITS, SESSION_LENGTH, DIGITS.slice(1)),
    );
    return { username: parts.join('-'), password: account.password };
  },
  classify: classifyCommon,
};
