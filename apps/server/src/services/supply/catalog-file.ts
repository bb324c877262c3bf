import type { ImportProblem } from '@bytegate/contracts/admin-exits';
import { readCountry, usStateName } from '@bytegate/contracts/countries';
import { parseAsn, parseZipcode } from '@bytegate/contracts/targeting';
import { hasControlCharacters } from '@bytegate/contracts/text';
import type { CatalogPlace } from '@bytegate/db/queries';
import { readCsvRecords } from './csv-records.ts';

// A vendor's list of the places its network serves, as the operator downloads it: a CSV whose header
// names the columns, a JSON array of such rows, or a JSON object of country -> cities. Pure: the file's
// text in, the places (normalised, each once) and the problems by line out.

/** The most places one import takes (a vendor's full list of cities and postal codes is about 100,000). */
export const CATALOG_MAX_PLACES = 500_000;
const NAME_MAX = 100;
const ASN_NAME_MAX = 200;

type Field = 'country' | 'state' | 'city' | 'zip' | 'asn' | 'asnName';

/** The column names each field goes by in vendors' files (lower-case, `_` for spaces and hyphens), best first. */
const COLUMN_NAMES: Record<Field, readonly string[]> = {
  country: ['country_code', 'countrycode', 'cc', 'iso2', 'country_iso', 'country'],
  state: ['state', 'region', 'state_code', 'region_code', 'subdivision', 'province', 'state_name'],
  city: ['city', 'city_name'],
  zip: ['zip', 'zipcode', 'zip_code', 'postal_code', 'postcode', 'postal'],
  asn: ['asn', 'as', 'as_number', 'asnum'],
  asnName: ['asn_name', 'as_name', 'asn_org', 'as_org', 'isp', 'org', 'organization'],
};
const FIELDS = Object.keys(COLUMN_NAMES) as Field[];

const columnKey = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Which of the given column names stands for each field (the best match of each), by its key. */
function mapColumns(names: readonly string[]): Partial<Record<Field, string>> {
  const byKey = new Map(names.map((name) => [columnKey(name), name]));
  const mapped: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) {
    const found = COLUMN_NAMES[field].find((candidate) => byKey.has(candidate));
    if (found !== undefined) {
      mapped[field] = byKey.get(found);
    }
  }
  return mapped;
}

export interface CatalogFile {
  /** Each place once, in the order first read. */
  places: CatalogPlace[];
  /** Lines (or items) that named a place, repeats included. */
  read: number;
  /** Every line that could not be read, in file order. */
  problems: ImportProblem[];
}

/** A place name as stored: trimmed, `_` read as a space (`new_york`), runs of spaces as one. */
function placeName(value: string): string {
  return value.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
}

/** One row's fields (text or numbers) as a place, or what is wrong with it. */
export function readPlace(fields: Partial<Record<Field, unknown>>): CatalogPlace | { problems: string[] } {
  const problems: string[] = [];
  const textOf = (field: Field): string => {
    const value = fields[field];
    if (value === undefined || value === null) {
      return '';
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      problems.push(`${field} must be text`);
      return '';
    }
    const text = String(value).trim();
    if (hasControlCharacters(text, { isMultiline: false })) {
      problems.push(`${field} holds a control character`);
      return '';
    }
    return text;
  };
  const countryText = textOf('country');
  const country = countryText === '' ? null : readCountry(countryText);
  if (countryText === '') {
    problems.push('country is missing');
  } else if (country === null) {
    problems.push(
      `country "${countryText}" is not a country (an ISO 3166 code such as US, or its English name)`,
    );
  }
  const name = (field: 'state' | 'city') => {
    const value = placeName(textOf(field));
    if (value.length > NAME_MAX) {
      problems.push(`${field} is longer than ${NAME_MAX} characters`);
    }
    return value === '' ? null : value;
  };
  let state = name('state');
  const city = name('city');
  // A US state by its code ('TX') is the state's name ('Texas'), as targeting and GeoIP name it.
  if (country === 'US' && state !== null && state.length === 2) {
    const named = usStateName(state);
    state = named === null ? state : named.replace(/\b(?!of\b)\w/g, (letter) => letter.toUpperCase());
  }
  const zipText = textOf('zip');
  const zip = zipText === '' ? null : parseZipcode(zipText);
  if (zip && !zip.ok) {
    problems.push(zip.message.replace(/^"/, 'zip "'));
  }
  const asnText = textOf('asn');
  const asn = asnText === '' ? null : parseAsn(asnText);
  if (asn && !asn.ok) {
    problems.push(asn.message);
  }
  const asnName = textOf('asnName').slice(0, ASN_NAME_MAX);
  if (problems.length > 0 || country === null) {
    return { problems };
  }
  return {
    country,
    state,
    city,
    zip: zip?.ok ? zip.value : null,
    asn: asn?.ok ? asn.value : null,
    asnName: asnName === '' ? null : asnName,
  };
}

/** The key the catalog keeps one row per (as the table's `location_key`). */
export function placeKey(place: CatalogPlace): string {
  return [
    place.country,
    place.state?.toLowerCase() ?? '',
    place.city?.toLowerCase() ?? '',
    place.zip ?? '',
    place.asn ?? '',
  ].join('|');
}

/** Collects rows into distinct places and problems. */
class Collector {
  private readonly byKey = new Map<string, CatalogPlace>();
  read = 0;
  readonly problems: ImportProblem[] = [];

  add(line: number, fields: Partial<Record<Field, unknown>>): void {
    const place = readPlace(fields);
    if ('problems' in place) {
      this.problems.push({ line, message: place.problems.join('; ') });
      return;
    }
    this.read += 1;
    const key = placeKey(place);
    const known = this.byKey.get(key);
    if (!known) {
      if (this.byKey.size >= CATALOG_MAX_PLACES) {
        throw new Error(`the file lists more than ${CATALOG_MAX_PLACES.toLocaleString('en-US')} places`);
      }
      this.byKey.set(key, place);
    } else if (!known.asnName && place.asnName) {
      known.asnName = place.asnName;
    }
  }

  result(): CatalogFile {
    return { places: [...this.byKey.values()], read: this.read, problems: this.problems };
  }
}

/** The fields of one object of a JSON file, by the same names as a CSV's columns. */
function fieldsOf(item: Record<string, unknown>): Partial<Record<Field, unknown>> {
  const columns = mapColumns(Object.keys(item));
  return Object.fromEntries(
    FIELDS.map((field) => [field, columns[field] ? item[columns[field]] : undefined]),
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{ "US": ["New York", "Dallas"], "DE": [] }`, or a country's cities by state
 * (`{ "US": { "Texas": ["Dallas"] } }`), or its rows as objects (`{ "US": [{ "city": "Dallas" }] }`).
 * An entry is one "line" (its position in the object).
 */
function readCountryObject(data: Record<string, unknown>, collector: Collector): void {
  let line = 0;
  for (const [country, value] of Object.entries(data)) {
    line += 1;
    const add = (fields: Partial<Record<Field, unknown>>) => collector.add(line, { ...fields, country });
    if (value === null || (Array.isArray(value) && value.length === 0)) {
      add({});
    } else if (Array.isArray(value)) {
      for (const item of value) {
        if (isObject(item)) {
          add(fieldsOf(item));
        } else {
          add({ city: item });
        }
      }
    } else if (isObject(value)) {
      for (const [state, cities] of Object.entries(value)) {
        const list = Array.isArray(cities) ? cities : [cities];
        if (list.length === 0) {
          add({ state });
        }
        for (const city of list) {
          add({ state, city });
        }
      }
    } else {
      collector.problems.push({
        line,
        message: `"${country}": expected a list of cities or an object of states, got ${typeof value}`,
      });
    }
  }
}

/**
 * Reads a catalog file. Throws an Error saying why when the file as a whole cannot be read (not JSON,
 * no header, no country column); a line that cannot be read is a problem of its own.
 */
export function readCatalogFile(content: string, format: 'csv' | 'json'): CatalogFile {
  const collector = new Collector();
  const text = content.replace(/^\uFEFF/, '');
  if (format === 'json') {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Error(`the file is not JSON (${(error as Error).message})`);
    }
    if (Array.isArray(data)) {
      data.forEach((item, index) => {
        if (isObject(item)) {
          collector.add(index + 1, fieldsOf(item));
        } else {
          collector.problems.push({
            line: index + 1,
            message: 'expected an object such as {"country": "US"}',
          });
        }
      });
    } else if (isObject(data)) {
      readCountryObject(data, collector);
    } else {
      throw new Error(
        'the JSON file must hold an array of places or an object of countries and their cities',
      );
    }
    return collector.result();
  }
  const [header, ...records] = readCsvRecords(text);
  if (!header) {
    throw new Error('the file is empty');
  }
  const columns = mapColumns(header.cells);
  if (!columns.country) {
    throw new Error(
      `the CSV must start with a header line naming a country column (country, country_code or cc); line ${header.line} names ${header.cells.map((cell) => `"${cell.trim()}"`).join(', ')}`,
    );
  }
  const index = Object.fromEntries(
    FIELDS.flatMap((field) => (columns[field] ? [[field, header.cells.indexOf(columns[field])]] : [])),
  ) as Partial<Record<Field, number>>;
  for (const record of records) {
    const fields: Partial<Record<Field, unknown>> = {};
    for (const field of FIELDS) {
      const at = index[field];
      fields[field] = at === undefined ? undefined : record.cells[at];
    }
    collector.add(record.line, fields);
  }
  return collector.result();
}
