import { describe, expect, it } from 'vitest';
import {
  applySavedTargeting,
  isRotationMinutes,
  isTargetFilter,
  targetingMessages as messages,
  parseAsn,
  parseCountryCode,
  parseZipcode,
  type SavedTargeting,
  toPlaceName,
} from './targeting.ts';

describe('targeting values', () => {
  it('reads two-letter country codes in any case, quoting the code upper-case when refused', () => {
    expect(parseCountryCode('de')).toEqual({ ok: true, value: 'DE' });
    expect(parseCountryCode('Germany')).toEqual({ ok: false, message: messages.countryCode('GERMANY') });
    expect(parseCountryCode('x1').ok).toBe(false);
  });

  it('reads postal codes of 2 to 10 letters, digits, inner spaces and hyphens', () => {
    expect(parseZipcode('10115')).toEqual({ ok: true, value: '10115' });
    expect(parseZipcode('sw1a 1aa')).toEqual({ ok: true, value: 'SW1A 1AA' });
    expect(parseZipcode('01310-100')).toEqual({ ok: true, value: '01310-100' });
    expect(parseZipcode('--')).toEqual({ ok: true, value: '--' });
    for (const bad of ['1', '10115!', '12345678901', ' 10115', '10115 ', 'a_b']) {
      expect(parseZipcode(bad), bad).toEqual({ ok: false, message: messages.zipcode(bad.toUpperCase()) });
    }
  });

  it('reads ASNs with or without the AS prefix, 1 to 4294967295', () => {
    expect(parseAsn('3320')).toEqual({ ok: true, value: 3320 });
    expect(parseAsn('as3320')).toEqual({ ok: true, value: 3320 });
    expect(parseAsn('AS4294967295')).toEqual({ ok: true, value: 4_294_967_295 });
    for (const bad of ['0', 'AS4294967296', 'telekom', '33 20', '-1', '']) {
      expect(parseAsn(bad), bad).toEqual({ ok: false, message: messages.asn(bad) });
    }
  });

  it('compares place names case-blind, and keeps rotation within 1 to 120 whole minutes', () => {
    expect(toPlaceName('New York')).toBe('new york');
    expect([1, 30, 120].every(isRotationMinutes)).toBe(true);
    expect([0, 121, 2.5, Number.NaN].some(isRotationMinutes)).toBe(false);
    expect(messages.rotation).toBe('Rotation interval must be between 1 and 120 minutes.');
  });
});

describe('the targeting rules', () => {
  const saved: SavedTargeting = {
    countries: ['DE'],
    excludeCountries: [],
    states: ['berlin'],
    cities: [],
    zips: [],
    asns: [],
    excludeAsns: [3320],
    anonymous: false,
    rotationMinutes: 10,
  };

  it('bills states, cities, postal codes and included ASNs at 2x, countries and excluded ASNs at 1x', () => {
    expect(isTargetFilter({ countries: ['US'], zips: ['10001'] })).toBe(true);
    expect(isTargetFilter({ countries: ['US'], excludeCities: ['austin'] })).toBe(true);
    expect(isTargetFilter({ countries: ['US'], asns: [7922] })).toBe(true);
    expect(isTargetFilter({ excludeCountries: ['RU'], excludeAsns: [7922] })).toBe(false);
    expect(isTargetFilter({})).toBe(false);
  });

  it('starts from the saved settings; a login location replaces the saved one, saved exclusions stay', () => {
    expect(applySavedTargeting({}, false, saved)).toEqual({
      countries: ['DE'],
      states: ['berlin'],
      excludeAsns: [3320],
      anonymous: false,
    });
    expect(applySavedTargeting({ countries: ['FR'], anonymous: true }, true, saved)).toEqual({
      countries: ['FR'],
      excludeAsns: [3320],
      anonymous: true,
    });
    expect(applySavedTargeting({ countries: ['FR'] }, true, undefined)).toEqual({ countries: ['FR'] });
  });
});
