import { describe, expect, it } from 'vitest';
import {
  checkProxySettings,
  DEFAULT_PROXY_SETTINGS,
  geoOptionLabel,
  proxySettingsMessages as messages,
  proxySettingsFromSaved,
  readRotationInterval,
  savedTargetingFromSettings,
  splitList,
} from './proxy-settings.ts';

const refused = (input: Parameters<typeof checkProxySettings>[0]) => {
  const result = checkProxySettings(input);
  return result.ok ? null : result.message;
};
const refusedField = (input: Parameters<typeof checkProxySettings>[0]) => {
  const result = checkProxySettings(input);
  return result.ok ? null : result.field;
};
const saved = (input: Parameters<typeof checkProxySettings>[0]) => {
  const result = checkProxySettings(input);
  if (!result.ok) {
    throw new Error(result.message);
  }
  return result.settings;
};

describe('proxy settings rules (SPEC section 5)', () => {
  it('names the setting each refusal is about, for the form to show it there', () => {
    expect(refusedField({})).toBe('countries');
    expect(refusedField({ countries: 'DE', exclude_countries: 'FR' })).toBe('countries');
    expect(refusedField({ cities: 'berlin' })).toBe('countries');
    expect(refusedField({ countries: 'DE', rotation_interval: 0 })).toBe('rotation_interval');
    expect(refusedField({ countries: 'Germany' })).toBe('countries');
    expect(refusedField({ exclude_countries: 'Russia' })).toBe('exclude_countries');
    expect(refusedField({ countries: 'DE', asns: 'Hetzner' })).toBe('asns');
    expect(refusedField({ countries: 'DE', exclude_asn: 'x' })).toBe('exclude_asn');
    expect(refusedField({ countries: 'DE', zipcodes: '!!' })).toBe('zipcodes');
  });

  it('needs at least one country or one excluded country', () => {
    expect(refused({})).toBe('Please select at least one country or set excluded countries.');
    expect(refused({ countries: ' , ' })).toBe(messages.noCountries);
  });

  it('never takes countries and excluded countries together', () => {
    expect(refused({ countries: ['DE'], exclude_countries: ['FR'] })).toBe(
      'Cannot set both countries and exclude_countries simultaneously.',
    );
  });

  it('needs countries for cities, states, zipcodes or ASNs', () => {
    for (const field of ['cities', 'states', 'zipcodes', 'asns'] as const) {
      const value = field === 'asns' ? '3320' : field === 'zipcodes' ? '10115' : 'berlin';
      expect(refused({ [field]: value }), field).toBe(
        'Countries must be specified when setting cities, states, zipcodes, or ASNs.',
      );
    }
  });

  it('clears cities, states, zipcodes and ASNs when only excluded countries are set', () => {
    expect(
      saved({
        exclude_countries: 'ru, by',
        states: ['texas'],
        cities: 'austin',
        zipcodes: '73301',
        asns: '7922',
      }),
    ).toEqual({ ...DEFAULT_PROXY_SETTINGS, exclude_countries: ['RU', 'BY'] });
  });

  it('keeps the rotation interval within 1 to 120 minutes; non-numeric falls back to 30', () => {
    for (const bad of [0, 121, -5, 2.5, '500']) {
      expect(refused({ countries: 'de', rotation_interval: bad }), String(bad)).toBe(
        'Rotation interval must be between 1 and 120 minutes.',
      );
    }
    expect(saved({ countries: 'de', rotation_interval: 'soon' }).rotation_interval).toBe(30);
    expect(saved({ countries: 'de', rotation_interval: '' }).rotation_interval).toBe(30);
    expect(saved({ countries: 'de', rotation_interval: ' 15 ' }).rotation_interval).toBe(15);
    expect(saved({ countries: 'de', rotation_interval: 120 }).rotation_interval).toBe(120);
    expect(readRotationInterval(undefined)).toBe(30);
  });

  it('splits comma-separated lists, trims them and drops empties and repeats', () => {
    expect(splitList(' de, ,fr,,de ')).toEqual(['de', 'fr']);
    expect(splitList(['us, ca', ' mx '])).toEqual(['us', 'ca', 'mx']);
    expect(splitList(undefined)).toEqual([]);
    expect(
      saved({
        countries: 'de, at',
        zipcodes: ' 10115 ,, 1010',
        asns: 'AS3320, 8447 ,as3320',
        exclude_asn: '16509',
      }),
    ).toMatchObject({
      countries: ['DE', 'AT'],
      zipcodes: ['10115', '1010'],
      asns: [3320, 8447],
      exclude_asn: [16509],
    });
  });

  it('normalises case: country and postal codes upper, place names lower', () => {
    expect(saved({ countries: ['us'], states: 'Texas', cities: 'New York' })).toMatchObject({
      countries: ['US'],
      states: ['texas'],
      cities: ['new york'],
    });
  });

  it('refuses codes of the wrong shape with a clear message', () => {
    expect(refused({ countries: 'Germany' })).toBe('"GERMANY" is not a two-letter country code');
    expect(refused({ exclude_countries: 'x1' })).toBe('"X1" is not a two-letter country code');
    expect(refused({ countries: 'de', asns: 'telekom' })).toBe(messages.asn('telekom'));
    expect(refused({ countries: 'de', zipcodes: '10115!' })).toBe(messages.zipcode('10115!'));
  });

  it('keeps the anonymous filter on unless it is turned off', () => {
    expect(saved({ countries: 'de' }).anonymous_filter).toBe(true);
    expect(saved({ countries: 'de', anonymous_filter: false }).anonymous_filter).toBe(false);
  });

  it("shows ASNs and postal codes as 'name (code)'", () => {
    expect(geoOptionLabel({ code: '3320', name: 'Deutsche Telekom AG' })).toBe('Deutsche Telekom AG (3320)');
    expect(geoOptionLabel({ code: '10115', name: '10115' })).toBe('10115');
  });

  it("maps the API's names into the targeting model's and back, field for field", () => {
    const settings = saved({
      countries: 'us',
      states: 'texas',
      cities: 'austin',
      zipcodes: '78701',
      asns: '7922',
      exclude_asn: '7018',
      anonymous_filter: false,
      rotation_interval: 15,
    });
    const targeting = savedTargetingFromSettings(settings);
    expect(targeting).toEqual({
      countries: ['US'],
      excludeCountries: [],
      states: ['texas'],
      cities: ['austin'],
      zips: ['78701'],
      asns: [7922],
      excludeAsns: [7018],
      anonymous: false,
      rotationMinutes: 15,
    });
    expect(proxySettingsFromSaved(targeting)).toEqual(settings);
  });
});
