import {
  applySavedTargeting,
  isRotationMinutes,
  parseAsn,
  parseCountryCode,
  parseZipcode,
  type SavedTargeting,
  type Targeting,
  targetingMessages,
  toPlaceName,
  type ValueCheck,
} from '@bytegate/contracts/targeting';
import { GatewayError } from '../errors.ts';

export type { SavedTargeting, Targeting } from '@bytegate/contracts/targeting';
// The targeting model (the type, value rules, limits, messages, the 2x rule and how saved settings
// merge) is the contracts' targeting.ts; this file is only the login's grammar (providers.md section 5).
export { isTargetFilter } from '@bytegate/contracts/targeting';

export interface ParsedUsername {
  login: string;
  params: Targeting;
  /** Any geo key present: the saved geo settings are then ignored as a whole. */
  hasGeo: boolean;
}

const LOGIN = /^[A-Za-z0-9]{8,32}$/;
const VALUE = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_USERNAME_OCTETS = 255;
const GEO_KEYS = new Set(['cr', 'nocr', 'state', 'nostate', 'city', 'nocity', 'zip', 'nozip', 'asn']);
const NEEDS_COUNTRY = ['state', 'city', 'zip', 'asn'];

/** The refusals the login shares with the saved settings, worded once in the contracts. */
export const usernameMessages = {
  conflict: targetingMessages.bothCountryLists,
  requiresCountry: targetingMessages.needsCountries,
} as const;

const invalid = (message: string) => new GatewayError('INVALID_VALUE', message);

/** A login value through a targeting value parser; a refusal is INVALID_VALUE with the model's message. */
function accepted<T>(read: ValueCheck<T>): T {
  if (!read.ok) {
    throw invalid(read.message);
  }
  return read.value;
}

/** A login cannot carry a space: `_` stands for one in names and postal codes (`city.new_york`). */
const spaced = (value: string) => value.replace(/_/g, ' ');

const country = (value: string) => accepted(parseCountryCode(value));
const place = (value: string) => toPlaceName(spaced(value));
const zip = (value: string) => accepted(parseZipcode(spaced(value)));
const asn = (value: string) => accepted(parseAsn(value));

function single(key: string, values: string[]): string {
  if (values.length !== 1 || !values[0]) {
    throw invalid(`${key} takes exactly one value`);
  }
  return values[0];
}

/**
 * A username or password as the client meant it: percent-escapes decoded once (UTF-8), since a proxy URL
 * carries `;`, `@` or `:` in its credentials escaped (`http://LOGIN__cr.us%3Bsessid.a1:PASSWORD@host`)
 * and some clients send them on that way instead of decoding them. A malformed escape (`%zz`, a cut
 * `%4`, bytes that are not UTF-8) is refused rather than guessed at. Our logins and passwords hold no
 * `%` of their own, so decoding never changes a credential that was sent as it is.
 */
export function decodeCredential(text: string, what: 'username' | 'password'): string {
  if (!text.includes('%')) {
    return text;
  }
  try {
    return decodeURIComponent(text);
  } catch {
    throw invalid(
      `The ${what} has a malformed percent-escape: write % as %25, and each escape as % and two hex digits of UTF-8`,
    );
  }
}

/** The login a username starts with (before its `__` and targeting), unchecked. */
export function loginOf(username: string): string {
  const separator = username.indexOf('__');
  return separator === -1 ? username : username.slice(0, separator);
}

/**
 * Parses `login__key.value,value;key.value` (already percent-decoded, see decodeCredential) strictly: an unknown or repeated key, a malformed value, or
 * a conflicting combination is an error with its code, never silently ignored (a typo must not bill 2x).
 */
export function parseProxyUsername(username: string): ParsedUsername {
  if (Buffer.byteLength(username) > MAX_USERNAME_OCTETS) {
    throw invalid('The username is longer than 255 characters');
  }
  const separator = username.indexOf('__');
  const login = separator === -1 ? username : username.slice(0, separator);
  if (!LOGIN.test(login)) {
    throw new GatewayError('NO_USER', 'Unknown proxy login');
  }
  const params: Targeting = {};
  const seen = new Set<string>();
  if (separator !== -1) {
    for (const part of username.slice(separator + 2).split(';')) {
      const dot = part.indexOf('.');
      const key = (dot === -1 ? part : part.slice(0, dot)).toLowerCase();
      const rawValues = dot === -1 ? [] : part.slice(dot + 1).split(',');
      if (!key) {
        throw invalid('Empty parameter in the username');
      }
      if (seen.has(key)) {
        throw new GatewayError('DUPLICATE_PARAM', `The parameter "${key}" is given twice`);
      }
      seen.add(key);
      if (key !== 'anon' && rawValues.length === 0) {
        throw invalid(`The parameter "${key}" needs a value`);
      }
      for (const value of rawValues) {
        if (!VALUE.test(value)) {
          throw invalid(`"${value}" is not a valid value for "${key}"`);
        }
      }
      applyParam(params, key, rawValues);
    }
  }
  if (params.countries && params.excludeCountries) {
    throw new GatewayError('PARAM_CONFLICT', usernameMessages.conflict);
  }
  if (!params.countries && NEEDS_COUNTRY.some((key) => seen.has(key))) {
    throw new GatewayError('PARAM_REQUIRES_COUNTRY', usernameMessages.requiresCountry);
  }
  return { login, params, hasGeo: [...seen].some((key) => GEO_KEYS.has(key)) };
}

function applyParam(params: Targeting, key: string, values: string[]): void {
  switch (key) {
    case 'cr':
      params.countries = values.map(country);
      return;
    case 'nocr':
      params.excludeCountries = values.map(country);
      return;
    case 'state':
      params.states = values.map(place);
      return;
    case 'nostate':
      params.excludeStates = values.map(place);
      return;
    case 'city':
      params.cities = values.map(place);
      return;
    case 'nocity':
      params.excludeCities = values.map(place);
      return;
    case 'zip':
      params.zips = values.map(zip);
      return;
    case 'nozip':
      params.excludeZips = values.map(zip);
      return;
    case 'asn':
      params.asns = values.map(asn);
      return;
    case 'noasn':
      params.excludeAsns = values.map(asn);
      return;
    case 'sessid':
      params.sessionId = single(key, values);
      return;
    case 'sessttl': {
      const text = single(key, values);
      const minutes = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
      if (!isRotationMinutes(minutes)) {
        throw invalid(targetingMessages.sessionTtl);
      }
      params.sessionTtlMinutes = minutes;
      return;
    }
    case 'anon': {
      const text = values.length === 0 ? '1' : single(key, values);
      if (text !== '0' && text !== '1') {
        throw invalid('anon must be 1 or 0');
      }
      params.anonymous = text === '1';
      return;
    }
    default:
      throw new GatewayError('UNKNOWN_PARAM', `Unknown parameter "${key}"`);
  }
}

/** A connection's targeting: the saved settings under the login's parameters (see applySavedTargeting). */
export function withSavedTargeting(parsed: ParsedUsername, saved: SavedTargeting | undefined): Targeting {
  return applySavedTargeting(parsed.params, parsed.hasGeo, saved);
}
