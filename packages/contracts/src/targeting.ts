/**
 * The targeting model (SPEC sections 3, 5 and 9; providers.md section 5): which exits a connection may
 * use. It has one vocabulary, the names of `Targeting` below. Each outside spelling maps into it in
 * exactly one place:
 * - the API's snake_case settings (`zipcodes`, `exclude_asn`, `anonymous_filter`, `rotation_interval`):
 *   `savedTargetingFromSettings` / `proxySettingsFromSaved` in proxy-settings.ts;
 * - the proxy login's keys (`cr`, `zip`, `noasn`, `anon`, `sessttl`): the gateway's routing/username.ts;
 * - the database row (`zipcodes`, `anonymousFilter`): the server's services/proxy-settings/saved-targeting.ts.
 *
 * Pure: no Node modules, no zod. The web form, the server and the gateway use the same value rules,
 * limits and messages from here.
 */

/** A sticky session's window, in minutes (SPEC section 9): `rotation_interval` and the login's `sessttl`. */
export const DEFAULT_ROTATION_MINUTES = 30;
export const MIN_ROTATION_MINUTES = 1;
export const MAX_ROTATION_MINUTES = 120;

/** Longest list a saved setting takes (a longer one is a mistake, not a targeting). */
export const MAX_LIST_ITEMS = 200;

/** The largest AS number (32-bit, RFC 6793). */
export const MAX_ASN = 4_294_967_295;

/** The refusals of the targeting rules, worded once for the form, the API and the gateway. */
export const targetingMessages = {
  noCountries: 'Please select at least one country or set excluded countries.',
  bothCountryLists: 'Cannot set both countries and exclude_countries simultaneously.',
  needsCountries: 'Countries must be specified when setting cities, states, zipcodes, or ASNs.',
  rotation: `Rotation interval must be between ${MIN_ROTATION_MINUTES} and ${MAX_ROTATION_MINUTES} minutes.`,
  /** The same limit as `rotation`, named as the login writes it. */
  sessionTtl: `sessttl must be a whole number of minutes from ${MIN_ROTATION_MINUTES} to ${MAX_ROTATION_MINUTES}`,
  countryCode: (code: string) => `"${code}" is not a two-letter country code`,
  asn: (value: string) => `"${value}" is not an ASN (a number such as 3320 or AS3320)`,
  zipcode: (value: string) => `"${value}" is not a postal code`,
  tooMany: (field: string) => `At most ${MAX_LIST_ITEMS} entries in ${field}`,
} as const;

/**
 * A connection's targeting: from the login's parameters, the plan's saved settings, or both merged
 * (`applySavedTargeting`). Absent means "any". Country and postal codes are upper-case, state and city
 * names lower-case with spaces.
 */
export interface Targeting {
  countries?: string[];
  excludeCountries?: string[];
  states?: string[];
  excludeStates?: string[];
  cities?: string[];
  excludeCities?: string[];
  zips?: string[];
  excludeZips?: string[];
  asns?: number[];
  excludeAsns?: number[];
  /** The anonymous filter: skip exits flagged as risky. Absent means on (SPEC section 9). */
  anonymous?: boolean;
  /** A sticky session's key on the rotating ports (`sessid`). */
  sessionId?: string;
  /** The session's window (`sessttl`); absent means the plan's saved `rotationMinutes`. */
  sessionTtlMinutes?: number;
}

/** A plan's saved targeting (Proxy Settings), as every connection through the plan starts from it. */
export interface SavedTargeting {
  countries: string[];
  excludeCountries: string[];
  states: string[];
  cities: string[];
  zips: string[];
  asns: number[];
  excludeAsns: number[];
  anonymous: boolean;
  /** The sticky window in minutes when the login gives no sessttl (the API's `rotation_interval`). */
  rotationMinutes: number;
}

/** A value read by one of the parsers below: the normalised value, or the message to refuse it with. */
export type ValueCheck<T> = { ok: true; value: T } | { ok: false; message: string };

const accept = <T>(value: T): ValueCheck<T> => ({ ok: true, value });
const refuse = <T>(message: string): ValueCheck<T> => ({ ok: false, message });

/** An ISO 3166 alpha-2 country code, any case: 'de' is DE. */
export function parseCountryCode(text: string): ValueCheck<string> {
  const code = text.toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? accept(code) : refuse(targetingMessages.countryCode(code));
}

/**
 * A postal code: 2 to 10 letters, digits, spaces and hyphens, any case ('sw1a 1aa' is SW1A 1AA), not
 * starting or ending with a space. Spaces belong to real codes (GB, CA, NL); the login, which cannot
 * carry one, writes `_` for it.
 */
export function parseZipcode(text: string): ValueCheck<string> {
  const zip = text.toUpperCase();
  return /^(?! )[A-Z0-9 -]{2,10}(?<! )$/.test(zip) ? accept(zip) : refuse(targetingMessages.zipcode(zip));
}

/** An AS number, with or without the `AS` prefix: 'AS3320' and '3320' are 3320. */
export function parseAsn(text: string): ValueCheck<number> {
  const match = /^(?:AS)?(\d{1,10})$/i.exec(text);
  const number = match?.[1] ? Number(match[1]) : Number.NaN;
  return Number.isInteger(number) && number >= 1 && number <= MAX_ASN
    ? accept(number)
    : refuse(targetingMessages.asn(text));
}

/** A state or city name as targeting compares it: case-blind. */
export function toPlaceName(text: string): string {
  return text.toLowerCase();
}

/** Whether a number of minutes is a valid rotation interval (`rotation_interval`, `sessttl`). */
export function isRotationMinutes(minutes: number): boolean {
  return Number.isInteger(minutes) && minutes >= MIN_ROTATION_MINUTES && minutes <= MAX_ROTATION_MINUTES;
}

/**
 * Target filters bill at twice the rate (SPEC section 9): states, cities and postal codes, included or
 * excluded, and included ASNs. Countries (either way) and excluded ASNs are in the base price.
 */
export function isTargetFilter(targeting: Targeting): boolean {
  return Boolean(
    targeting.states?.length ||
      targeting.excludeStates?.length ||
      targeting.cities?.length ||
      targeting.excludeCities?.length ||
      targeting.zips?.length ||
      targeting.excludeZips?.length ||
      targeting.asns?.length,
  );
}

const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);

/** A targeting's location keys: every key but anonymous and the session's. */
const LOCATION_KEYS = [
  'countries',
  'excludeCountries',
  'states',
  'excludeStates',
  'cities',
  'excludeCities',
  'zips',
  'excludeZips',
  'asns',
  'excludeAsns',
] as const satisfies ReadonlyArray<keyof Targeting>;

function copyDefined<K extends keyof Targeting>(to: Targeting, from: Targeting, key: K): void {
  const value = from[key];
  if (value !== undefined) {
    to[key] = value;
  }
}

/**
 * A connection's targeting: the plan's saved settings, overridden by the login's parameters. When the
 * login names any location (`hasLocation`: cr, state, city, zip, asn or their exclusions) it replaces the
 * saved location as a whole, since saved states or cities belong to the saved countries; `anon` and
 * `sessttl` override one by one. Saved excluded countries and ASNs always stay excluded.
 */
export function applySavedTargeting(
  login: Targeting,
  hasLocation: boolean,
  saved: SavedTargeting | undefined,
): Targeting {
  if (!saved) {
    return login;
  }
  const location: Targeting = hasLocation
    ? login
    : {
        countries: nonEmpty(saved.countries),
        states: nonEmpty(saved.states),
        cities: nonEmpty(saved.cities),
        zips: nonEmpty(saved.zips),
        asns: nonEmpty(saved.asns),
      };
  const excludeCountries = [...new Set([...(location.excludeCountries ?? []), ...saved.excludeCountries])];
  const excludeAsns = [...new Set([...(location.excludeAsns ?? []), ...saved.excludeAsns])];
  // Copied key by key in one order, not spread and pruned with `delete`: V8 gave each spread copy a
  // hidden class of its own, and the gateway reads a connection's targeting for every exit it checks
  // (a read of such an object cost about 5 µs a check instead of 0.2).
  const merged: Targeting = {};
  for (const key of LOCATION_KEYS) {
    copyDefined(merged, location, key);
  }
  merged.anonymous = login.anonymous ?? saved.anonymous;
  if (excludeCountries.length > 0) {
    merged.excludeCountries = excludeCountries;
  }
  if (excludeAsns.length > 0) {
    merged.excludeAsns = excludeAsns;
  }
  if (login.sessionId !== undefined) {
    merged.sessionId = login.sessionId;
  }
  if (login.sessionTtlMinutes !== undefined) {
    merged.sessionTtlMinutes = login.sessionTtlMinutes;
  }
  return merged;
}
