import { z } from 'zod';
import { poolTypeSchema } from './billing.ts';
import {
  DEFAULT_ROTATION_MINUTES,
  isRotationMinutes,
  MAX_LIST_ITEMS,
  parseAsn,
  parseCountryCode,
  parseZipcode,
  type SavedTargeting,
  targetingMessages,
  toPlaceName,
  type ValueCheck,
} from './targeting.ts';
import { text } from './text.ts';

// A plan's saved targeting (SPEC sections 3 and 5) as the API and the form spell it: the default of
// every connection through the plan, which the parameters of a proxy login override per connection.
// The rules below run in the form and on the server alike, with the spec's exact messages; the values,
// limits and messages themselves are the targeting model's (targeting.ts).

export const proxySettingsMessages = {
  ...targetingMessages,
  loadSettings: 'Failed to load current settings.',
  loadCountries: 'Failed to load available countries.',
  loadStates: 'Failed to load available states.',
  loadAsns: 'Failed to load available ASNs.',
  loadZipcodes: 'Failed to load available zipcodes.',
  loadPlan: 'Failed to load current plan',
  checkPlan: 'Failed to check proxy plan status',
  loaded: 'Settings loaded',
  saved: 'Settings saved',
  saveFailed: 'Failed to save settings. Please try again.',
  excludeHint: 'Cannot exclude countries when specific countries are selected',
  /** One state or city name over the limit (`entry` names one: 'city'). */
  entryTooLong: (entry: string) => `Each ${entry} must be at most ${MAX_LIST_ENTRY_LENGTH} characters`,
  listTextTooLong: (label: string) =>
    `${label} must be at most ${MAX_LIST_TEXT_LENGTH.toLocaleString('en-US')} characters`,
  listTooLong: (label: string) =>
    `At most ${MAX_LIST_ENTRIES_SENT.toLocaleString('en-US')} entries in ${label.toLowerCase()}`,
} as const;

/** The longest entry of a list the API takes (a state or city name; codes are shorter). */
export const MAX_LIST_ENTRY_LENGTH = 200;
/** A list sent as comma-separated text, at most this long. */
const MAX_LIST_TEXT_LENGTH = 20_000;
/** A list sent as an array, at most this many entries (the rules then allow MAX_LIST_ITEMS). */
const MAX_LIST_ENTRIES_SENT = 1000;

/** A list given as an array or as comma-separated text: split, trimmed, empties and repeats dropped. */
export function splitList(value: unknown): string[] {
  const parts = Array.isArray(value)
    ? value.flatMap((item) => String(item ?? '').split(','))
    : typeof value === 'string'
      ? value.split(',')
      : [];
  const seen = new Set<string>();
  for (const part of parts) {
    const trimmed = part.trim();
    if (trimmed !== '') {
      seen.add(trimmed);
    }
  }
  return [...seen];
}

/** A rotation interval as typed: a number is kept (and checked), anything non-numeric falls back to 30. */
export function readRotationInterval(value: unknown): number {
  if (value === undefined || value === null || value === '') {
    return DEFAULT_ROTATION_MINUTES;
  }
  const number = typeof value === 'number' ? value : Number(String(value).trim());
  return Number.isFinite(number) ? number : DEFAULT_ROTATION_MINUTES;
}

/** Saved targeting as the API spells it (SPEC section 3); `SavedTargeting` is the same in the model's names. */
export interface ProxySettings {
  countries: string[];
  states: string[];
  cities: string[];
  zipcodes: string[];
  asns: number[];
  exclude_countries: string[];
  exclude_asn: number[];
  anonymous_filter: boolean;
  rotation_interval: number;
}

export const DEFAULT_PROXY_SETTINGS: ProxySettings = {
  countries: [],
  states: [],
  cities: [],
  zipcodes: [],
  asns: [],
  exclude_countries: [],
  exclude_asn: [],
  anonymous_filter: true,
  rotation_interval: DEFAULT_ROTATION_MINUTES,
};

/** What a form or a client sends: lists as arrays or comma-separated text, the interval as typed. */
export interface ProxySettingsInput {
  countries?: unknown;
  states?: unknown;
  cities?: unknown;
  zipcodes?: unknown;
  asns?: unknown;
  exclude_countries?: unknown;
  exclude_asn?: unknown;
  anonymous_filter?: unknown;
  rotation_interval?: unknown;
}

/** A setting a refusal is about, so a form can show the message beside it. */
export type ProxySettingsField = keyof ProxySettings;

export type SettingsCheck =
  | { ok: true; settings: ProxySettings }
  | { ok: false; message: string; field: ProxySettingsField };

/** A list's values through a value parser: the values, or the first refusal (or a too-long list). */
function readValues<T>(value: unknown, field: string, parse: (text: string) => ValueCheck<T>): T[] | string {
  const items = splitList(value);
  if (items.length > MAX_LIST_ITEMS) {
    return proxySettingsMessages.tooMany(field);
  }
  const values: T[] = [];
  for (const item of items) {
    const read = parse(item);
    if (!read.ok) {
      return read.message;
    }
    if (!values.includes(read.value)) {
      values.push(read.value);
    }
  }
  return values;
}

// Names compare case-blind, as the gateway's login parameters do (`_` stands for a space there).
const readNames = (value: unknown, field: string, entry: string) =>
  readValues(value, field, (name) =>
    name.length > MAX_LIST_ENTRY_LENGTH
      ? { ok: false, message: proxySettingsMessages.entryTooLong(entry) }
      : { ok: true, value: toPlaceName(name) },
  );

/**
 * The save rules of SPEC section 5, in order: lists normalised; countries and excluded countries never
 * both; location filters need countries; at least one of the two country lists; only excluded countries
 * clears the location filters; the rotation interval within 1 to 120 minutes (non-numeric is 30).
 */
export function checkProxySettings(input: ProxySettingsInput): SettingsCheck {
  const countries = readValues(input.countries, 'countries', parseCountryCode);
  const excludeCountries = readValues(input.exclude_countries, 'exclude_countries', parseCountryCode);
  const states = readNames(input.states, 'states', 'state');
  const cities = readNames(input.cities, 'cities', 'city');
  const zipcodes = readValues(input.zipcodes, 'zipcodes', parseZipcode);
  const asns = readValues(input.asns, 'asns', parseAsn);
  const excludeAsn = readValues(input.exclude_asn, 'exclude_asn', parseAsn);
  const read = {
    countries,
    exclude_countries: excludeCountries,
    states,
    cities,
    zipcodes,
    asns,
    exclude_asn: excludeAsn,
  };
  for (const [field, list] of Object.entries(read)) {
    if (typeof list === 'string') {
      return { ok: false, message: list, field: field as ProxySettingsField };
    }
  }
  const lists = { countries, excludeCountries, states, cities, zipcodes, asns, excludeAsn } as {
    countries: string[];
    excludeCountries: string[];
    states: string[];
    cities: string[];
    zipcodes: string[];
    asns: number[];
    excludeAsn: number[];
  };
  const hasLocation =
    lists.states.length + lists.cities.length + lists.zipcodes.length + lists.asns.length > 0;
  if (lists.countries.length > 0 && lists.excludeCountries.length > 0) {
    return { ok: false, message: proxySettingsMessages.bothCountryLists, field: 'countries' };
  }
  if (lists.countries.length === 0 && lists.excludeCountries.length === 0) {
    return {
      ok: false,
      message: hasLocation ? proxySettingsMessages.needsCountries : proxySettingsMessages.noCountries,
      field: 'countries',
    };
  }
  const rotation = readRotationInterval(input.rotation_interval);
  if (!isRotationMinutes(rotation)) {
    return { ok: false, message: proxySettingsMessages.rotation, field: 'rotation_interval' };
  }
  const onlyExcluded = lists.countries.length === 0;
  return {
    ok: true,
    settings: {
      countries: lists.countries,
      states: onlyExcluded ? [] : lists.states,
      cities: onlyExcluded ? [] : lists.cities,
      zipcodes: onlyExcluded ? [] : lists.zipcodes,
      asns: onlyExcluded ? [] : lists.asns,
      exclude_countries: lists.excludeCountries,
      exclude_asn: lists.excludeAsn,
      anonymous_filter: input.anonymous_filter === undefined ? true : input.anonymous_filter === true,
      rotation_interval: rotation,
    },
  };
}

/** The API's settings in the targeting model's names: the one place the two spellings meet. */
export function savedTargetingFromSettings(settings: ProxySettings): SavedTargeting {
  return {
    countries: settings.countries,
    excludeCountries: settings.exclude_countries,
    states: settings.states,
    cities: settings.cities,
    zips: settings.zipcodes,
    asns: settings.asns,
    excludeAsns: settings.exclude_asn,
    anonymous: settings.anonymous_filter,
    rotationMinutes: settings.rotation_interval,
  };
}

/** Saved targeting as the API answers it (the inverse of `savedTargetingFromSettings`). */
export function proxySettingsFromSaved(saved: SavedTargeting): ProxySettings {
  return {
    countries: saved.countries,
    states: saved.states,
    cities: saved.cities,
    zipcodes: saved.zips,
    asns: saved.asns,
    exclude_countries: saved.excludeCountries,
    exclude_asn: saved.excludeAsns,
    anonymous_filter: saved.anonymous,
    rotation_interval: saved.rotationMinutes,
  };
}

/**
 * A list as text or as an array; `label` names the setting in a refusal, `entry` one of its entries.
 * Every refusal is worded for the person who typed the list (none of zod's own 'Too big: …').
 */
const listInput = (label: string, entry: string) =>
  z
    .union(
      [
        text(label).max(MAX_LIST_TEXT_LENGTH, proxySettingsMessages.listTextTooLong(label)),
        z
          .array(
            z.union([
              text(label).max(MAX_LIST_ENTRY_LENGTH, proxySettingsMessages.entryTooLong(entry)),
              z.number(),
            ]),
          )
          .max(MAX_LIST_ENTRIES_SENT, proxySettingsMessages.listTooLong(label)),
      ],
      {
        // Text or list: when the value is one of them but refused, that refusal is the one to say.
        error: (issue) =>
          (issue.code === 'invalid_union'
            ? issue.errors.flat().find((inner) => inner.code !== 'invalid_type')?.message
            : undefined) ?? `${label} must be a list or comma-separated text`,
      },
    )
    .optional();

/** PUT /api/proxy-settings: every field of SPEC section 3 plus pool_type; the rules run after parsing. */
export const saveProxySettingsRequestSchema = z.object({
  pool_type: poolTypeSchema,
  countries: listInput('Countries', 'country'),
  states: listInput('States', 'state'),
  cities: listInput('Cities', 'city'),
  zipcodes: listInput('ZIP codes', 'ZIP code'),
  asns: listInput('ASNs', 'ASN'),
  exclude_countries: listInput('Excluded countries', 'excluded country'),
  exclude_asn: listInput('Excluded ASNs', 'excluded ASN'),
  anonymous_filter: z.boolean({ error: 'Anonymous filter must be on or off' }).optional(),
  rotation_interval: z
    .union([z.number(), text('Rotation interval').max(20, proxySettingsMessages.rotation)], {
      error: proxySettingsMessages.rotation,
    })
    .optional(),
});

export const proxySettingsSchema = z.object({
  pool_type: poolTypeSchema,
  countries: z.array(z.string()),
  states: z.array(z.string()),
  cities: z.array(z.string()),
  zipcodes: z.array(z.string()),
  asns: z.array(z.number().int()),
  exclude_countries: z.array(z.string()),
  exclude_asn: z.array(z.number().int()),
  anonymous_filter: z.boolean(),
  rotation_interval: z.number().int(),
  updated_at: z.string(),
});
export type ProxySettingsResponse = z.infer<typeof proxySettingsSchema>;

export const proxySettingsQuerySchema = z.object({ pool_type: poolTypeSchema });

/** POST /api/proxy-settings/{countries|states|asns|zipcodes}: the other fields narrow the list. */
export const geoOptionsRequestSchema = z.object({
  pool_type: poolTypeSchema,
  countries: listInput('Countries', 'country'),
  states: listInput('States', 'state'),
  cities: listInput('Cities', 'city'),
  zipcodes: listInput('ZIP codes', 'ZIP code'),
  asns: listInput('ASNs', 'ASN'),
});

export const geoOptionSchema = z.object({ code: z.string(), name: z.string() });
export type GeoOption = z.infer<typeof geoOptionSchema>;
export const geoOptionsResponseSchema = z.array(geoOptionSchema);

/** How the dashboard shows an ASN or ZIP option: 'name (code)'. */
export function geoOptionLabel(option: GeoOption): string {
  return option.name && option.name !== option.code ? `${option.name} (${option.code})` : option.code;
}
