import { COUNTRY_CODES, countryName, isCountryCode, readCountry } from '@bytegate/contracts/countries';
import { describe, expect, it } from 'vitest';
import { readCatalogFile } from './catalog-file.ts';
import { readCsvRecords } from './csv-records.ts';

describe('readCsvRecords', () => {
  it('reads quoted cells with separators, quotes and line breaks, and numbers lines as an editor does', () => {
    const text =
      'country,city\r\nUS,"Washington, D.C."\n\n# a comment\nGB,"St. John""s"\nCA,"Two\nLines"\nDE,Berlin';
    expect(readCsvRecords(text)).toEqual([
      { line: 1, cells: ['country', 'city'] },
      { line: 2, cells: ['US', 'Washington, D.C.'] },
      { line: 5, cells: ['GB', 'St. John"s'] },
      { line: 6, cells: ['CA', 'Two\nLines'] },
      { line: 8, cells: ['DE', 'Berlin'] },
    ]);
  });

  it('takes the separator the header uses: semicolons and tabs too', () => {
    expect(readCsvRecords('cc;city\nFR;Paris')[1]?.cells).toEqual(['FR', 'Paris']);
    expect(readCsvRecords('cc\tcity\nFR\tSaint-Denis, Réunion')[1]?.cells).toEqual([
      'FR',
      'Saint-Denis, Réunion',
    ]);
  });
});

describe('the country list', () => {
  it('holds the 249 ISO 3166-1 codes and Kosovo, each with an English name', () => {
    expect(COUNTRY_CODES).toHaveLength(250);
    expect(new Set(COUNTRY_CODES).size).toBe(250);
    for (const code of COUNTRY_CODES) {
      expect(countryName(code), code).not.toBe(code);
    }
    expect(['UK', 'EU', 'ZZ', 'XX', 'us'].map(isCountryCode)).toEqual([false, false, false, false, false]);
  });

  it('reads codes in any case and English names', () => {
    expect(
      ['de', 'Germany', ' united states ', 'United  Kingdom', 'Kosovo', 'Narnia', 'UK'].map(readCountry),
    ).toEqual(['DE', 'DE', 'US', 'GB', 'XK', null, null]);
  });
});

describe('readCatalogFile', () => {
  it('finds the columns by their header, in any order and spelling, and normalises each place', () => {
    const csv = [
      'City Name,State,Country Code,Postal Code,AS Number,ISP,extra',
      'new_york,NY,us,10001,AS7922,Comcast,x',
      '  Dallas ,tx,US,,7018,,',
      'Berlin,,de,,,,',
      'São  Paulo,SP,Brazil,,,,',
    ].join('\n');
    const file = readCatalogFile(csv, 'csv');
    expect(file.problems).toEqual([]);
    expect(file.read).toBe(4);
    expect(file.places).toEqual([
      { country: 'US', state: 'New York', city: 'new york', zip: '10001', asn: 7922, asnName: 'Comcast' },
      { country: 'US', state: 'Texas', city: 'Dallas', zip: null, asn: 7018, asnName: null },
      { country: 'DE', state: null, city: 'Berlin', zip: null, asn: null, asnName: null },
      { country: 'BR', state: 'SP', city: 'São Paulo', zip: null, asn: null, asnName: null },
    ]);
  });

  it('keeps one place per country, state, city, postal code and ASN, whatever the case', () => {
    const file = readCatalogFile(
      'cc,region,city\nUS,Texas,Dallas\nus,TEXAS,dallas\nUS,tx,DALLAS\nUS,,Dallas',
      'csv',
    );
    expect(file.read).toBe(4);
    expect(file.places.map((place) => [place.state, place.city])).toEqual([
      ['Texas', 'Dallas'],
      [null, 'Dallas'],
    ]);
  });

  it('names every bad line with its number and every problem of it', () => {
    const csv = [
      'country,city,asn,zip',
      'US,Dallas,,',
      'UK,London,,',
      ',Paris,,',
      'DE,Berlin,AS-1,1 2 3 4 5 6 7 8',
      `FR,${'x'.repeat(101)},,`,
      'ZZ,,,',
    ].join('\n');
    const file = readCatalogFile(csv, 'csv');
    expect(file.places).toHaveLength(1);
    expect(file.problems).toEqual([
      {
        line: 3,
        message: 'country "UK" is not a country (an ISO 3166 code such as US, or its English name)',
      },
      { line: 4, message: 'country is missing' },
      {
        line: 5,
        message:
          'zip "1 2 3 4 5 6 7 8" is not a postal code; "AS-1" is not an ASN (a number such as 3320 or AS3320)',
      },
      { line: 6, message: 'city is longer than 100 characters' },
      {
        line: 7,
        message: 'country "ZZ" is not a country (an ISO 3166 code such as US, or its English name)',
      },
    ]);
  });

  it('refuses a file it cannot read as a whole, saying why', () => {
    expect(() => readCatalogFile('', 'csv')).toThrow('the file is empty');
    expect(() => readCatalogFile('name,town\nx,y', 'csv')).toThrow(
      'the CSV must start with a header line naming a country column (country, country_code or cc); line 1 names "name", "town"',
    );
    expect(() => readCatalogFile('{"US": ', 'json')).toThrow(/^the file is not JSON/);
    expect(() => readCatalogFile('"US"', 'json')).toThrow(
      'the JSON file must hold an array of places or an object of countries and their cities',
    );
  });

  it('reads a JSON array of rows by the same names, numbering items from 1', () => {
    const json = JSON.stringify([
      { country_code: 'US', region: 'California', city: 'Los Angeles', asn: 7018 },
      'Dallas',
      { cc: 'XX' },
      { country: 'JP' },
    ]);
    const file = readCatalogFile(json, 'json');
    expect(file.places).toEqual([
      { country: 'US', state: 'California', city: 'Los Angeles', zip: null, asn: 7018, asnName: null },
      { country: 'JP', state: null, city: null, zip: null, asn: null, asnName: null },
    ]);
    expect(file.problems).toEqual([
      { line: 2, message: 'expected an object such as {"country": "US"}' },
      {
        line: 3,
        message: 'country "XX" is not a country (an ISO 3166 code such as US, or its English name)',
      },
    ]);
  });

  it('reads a JSON object of countries and their cities, by state or not', () => {
    const json = JSON.stringify({
      US: { Texas: ['Dallas', 'Houston'], 'New York': 'New York' },
      DE: ['Berlin', 'Munich'],
      FR: [],
      GB: [{ city: 'London', zip: 'sw1a 1aa' }],
      Narnia: ['Cair Paravel'],
      IT: 5,
    });
    const file = readCatalogFile(json, 'json');
    expect(file.places.map((place) => [place.country, place.state, place.city, place.zip])).toEqual([
      ['US', 'Texas', 'Dallas', null],
      ['US', 'Texas', 'Houston', null],
      ['US', 'New York', 'New York', null],
      ['DE', null, 'Berlin', null],
      ['DE', null, 'Munich', null],
      ['FR', null, null, null],
      ['GB', null, 'London', 'SW1A 1AA'],
    ]);
    expect(file.problems).toEqual([
      {
        line: 5,
        message: 'country "Narnia" is not a country (an ISO 3166 code such as US, or its English name)',
      },
      { line: 6, message: '"IT": expected a list of cities or an object of states, got number' },
    ]);
  });
});
