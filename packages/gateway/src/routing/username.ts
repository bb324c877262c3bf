import { GatewayError } from '../errors.ts';
import type { SavedTargeting } from '../store.ts';

/** Targeting asked for in a proxy username (providers.md section 5). Codes are upper-case ISO, names lower-case. */
export interface UsernameParams {
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
  sessionId?: string;
  sessionTtlMinutes?: number;
  anonymous?: boolean;
}

export interface ParsedUsername {
  login: string;
  params: UsernameParams;
  /** Any geo key present: the saved geo settings are then ignored as a whole. */
  hasGeo: boolean;
}

const LOGIN = /^[A-Za-z0-9]{8,32}$/;
const VALUE = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_USERNAME_OCTETS = 255;
const GEO_KEYS = new Set(['cr', 'nocr', 'state', 'nostate', 'city', 'nocity', 'zip', 'nozip', 'asn']);
const NEEDS_COUNTRY = ['state', 'city', 'zip', 'asn'];

export const usernameMessages = {
  conflict: 'Cannot set both countries and exclude_countries simultaneously.',
  requiresCountry: 'Countries must be specified when setting cities, states, zipcodes, or ASNs.',
} as const;

const invalid = (message: string) => new GatewayError('INVALID_VALUE', message);

function country(value: string): string {
  if (!/^[a-z]{2}$/i.test(value)) {
    throw invalid(`"${value}" is not a two-letter country code`);
  }
  return value.toUpperCase();
}

function place(value: string): string {
  return value.toLowerCase().replace(/_/g, ' ');
}

function zip(value: string): string {
  if (!/^[a-z0-9-]{2,10}$/i.test(value)) {
    throw invalid(`"${value}" is not a postal code`);
  }
  return value.toUpperCase();
}

function asn(value: string): number {
  const match = /^(?:as)?(\d{1,10})$/i.exec(value);
  const number = match?.[1] ? Number(match[1]) : Number.NaN;
  if (!Number.isInteger(number) || number < 1 || number > 4_294_967_295) {
    throw invalid(`"${value}" is not an ASN`);
  }
  return number;
}

function single(key: string, values: string[]): string {
  if (values.length !== 1 || !values[0]) {
    throw invalid(`${key} takes exactly one value`);
  }
  return values[0];
}

/**
 * Parses `login__key.value,value;key.value` strictly: an unknown or repeated key, a malformed value, or
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
  const params: UsernameParams = {};
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

function applyParam(params: UsernameParams, key: string, values: string[]): void {
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
      if (!(minutes >= 1 && minutes <= 120)) {
        throw invalid('sessttl must be a whole number of minutes from 1 to 120');
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

/** Target filters (state, city, ZIP, ASN, and their exclusions but ASN's) bill at twice the rate (SPEC section 9). */
export function isTargetFilter(params: UsernameParams): boolean {
  return Boolean(
    params.states?.length ||
      params.excludeStates?.length ||
      params.cities?.length ||
      params.excludeCities?.length ||
      params.zips?.length ||
      params.excludeZips?.length ||
      params.asns?.length,
  );
}

const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);

/**
 * A connection's targeting: the plan's saved settings, overridden by the login's parameters. Any
 * location key in the login (cr, state, city, zip, asn or their exclusions) replaces the saved location
 * as a whole, since saved states or cities belong to the saved countries; `anon` and `sessttl` override
 * one by one. Saved excluded countries and ASNs always stay excluded.
 */
export function withSavedTargeting(
  parsed: ParsedUsername,
  saved: SavedTargeting | undefined,
): UsernameParams {
  if (!saved) {
    return parsed.params;
  }
  const login = parsed.params;
  const location: UsernameParams = parsed.hasGeo
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
  const merged: UsernameParams = { ...location, anonymous: login.anonymous ?? saved.anonymous };
  for (const key of Object.keys(merged) as Array<keyof UsernameParams>) {
    if (merged[key] === undefined) {
      delete merged[key];
    }
  }
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
