/**
 * The countries (ISO 3166-1 alpha-2) and the US states, as places are named across the product: vendor
 * catalogs, GeoIP answers, grammar adapters. Pure: no Node modules.
 */

/**
 * Every officially assigned ISO 3166-1 alpha-2 code (249), plus XK: Kosovo has no ISO code, but
 * GeoLite2 and the wholesale networks use XK for it. Not EU, UK, ZZ nor the other reserved codes.
 */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV ' +
  'BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ' +
  'ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE ' +
  'IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY ' +
  'MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU ' +
  'NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM ' +
  'SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE ' +
  'VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

const COUNTRY_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

/** Whether a code (upper-case) is a country's: 'DE' is, 'UK', 'EU' and 'ZZ' are not. */
export function isCountryCode(code: string): boolean {
  return COUNTRY_SET.has(code);
}

/** A country's English name ('DE' is Germany); the code itself when the runtime does not know it. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

let codesByName: Map<string, string> | undefined;

/**
 * The code of a country written as a code ('de', 'DE') or by its English name ('Germany', 'united
 * states'), as vendors' files spell them; null for anything else.
 */
export function readCountry(text: string): string | null {
  const trimmed = text.trim();
  const code = trimmed.toUpperCase();
  if (isCountryCode(code)) {
    return code;
  }
  if (!codesByName) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    codesByName = new Map(COUNTRY_CODES.map((known) => [(names.of(known) ?? known).toLowerCase(), known]));
  }
  return codesByName.get(trimmed.toLowerCase().replace(/\s+/g, ' ')) ?? null;
}

/** The US states and DC by lower-case name, with their two-letter codes (lower-case). */
export const US_STATE_CODES: Readonly<Record<string, string>> = {
  alabama: 'al',
  alaska: 'ak',
  arizona: 'az',
  arkansas: 'ar',
  california: 'ca',
  colorado: 'co',
  connecticut: 'ct',
  delaware: 'de',
  'district of columbia': 'dc',
  florida: 'fl',
  georgia: 'ga',
  hawaii: 'hi',
  idaho: 'id',
  illinois: 'il',
  indiana: 'in',
  iowa: 'ia',
  kansas: 'ks',
  kentucky: 'ky',
  louisiana: 'la',
  maine: 'me',
  maryland: 'md',
  massachusetts: 'ma',
  michigan: 'mi',
  minnesota: 'mn',
  mississippi: 'ms',
  missouri: 'mo',
  montana: 'mt',
  nebraska: 'ne',
  nevada: 'nv',
  'new hampshire': 'nh',
  'new jersey': 'nj',
  'new mexico': 'nm',
  'new york': 'ny',
  'north carolina': 'nc',
  'north dakota': 'nd',
  ohio: 'oh',
  oklahoma: 'ok',
  oregon: 'or',
  pennsylvania: 'pa',
  'rhode island': 'ri',
  'south carolina': 'sc',
  'south dakota': 'sd',
  tennessee: 'tn',
  texas: 'tx',
  utah: 'ut',
  vermont: 'vt',
  virginia: 'va',
  washington: 'wa',
  'west virginia': 'wv',
  wisconsin: 'wi',
  wyoming: 'wy',
};

let usStateNames: Map<string, string> | undefined;

/** A US state's lower-case name from its two-letter code, any case ('TX' is texas); null otherwise. */
export function usStateName(code: string): string | null {
  usStateNames ??= new Map(Object.entries(US_STATE_CODES).map(([name, known]) => [known, name]));
  return usStateNames.get(code.toLowerCase()) ?? null;
}
