import { describe, expect, it } from 'vitest';
import { decodo } from './decodo.ts';

const account = { username: 'sp12345', password: 'secret' };
const session = { key: 'user42:residential:job7:0', minutes: 30 };

describe('Decodo username', () => {
  it('spells country, city, session and sessionduration after user-USER', () => {
    expect(decodo.credentials(account, {}, undefined)).toEqual({
      username: 'user-sp12345',
      password: 'secret',
    });
    expect(decodo.credentials(account, { countries: ['US'], cities: ['new york'] }, undefined).username).toBe(
      'user-sp12345-country-us-city-new_york',
    );
    expect(
      decodo.credentials(account, { countries: ['US'], cities: ['new york'] }, session).username,
    ).toMatch(/^user-sp12345-country-us-city-new_york-session-[a-z0-9]{12}-sessionduration-30$/);
    expect(decodo.credentials(account, {}, { ...session, minutes: 2000 }).username).toMatch(
      /-sessionduration-1440$/,
    );
    expect(decodo.credentials(account, {}, { ...session, minutes: 0.2 }).username).toMatch(
      /-sessionduration-1$/,
    );
  });

  it('refuses states, ZIP codes, ASNs and exclusions', () => {
    expect(decodo.cannotExpress({ countries: ['US'], cities: ['austin'] })).toBeNull();
    expect(decodo.cannotExpress({ countries: ['US'], states: ['texas'] })).toBe('state targeting');
    expect(decodo.cannotExpress({ countries: ['US'], zips: ['10001'] })).toBe('ZIP targeting');
    expect(decodo.cannotExpress({ countries: ['US'], asns: [7922] })).toBe('ASN targeting');
    expect(decodo.cannotExpress({ countries: ['US'], excludeStates: ['texas'] })).toBe('excluded states');
    expect(() => decodo.credentials(account, { countries: ['US'], asns: [7922] }, undefined)).toThrow(
      'decodo cannot express ASN targeting',
    );
  });

  it('reads 407 as our credentials and anything else it does not document as a failure', () => {
    expect(decodo.classify({ protocol: 'http', status: 407, headers: {} })).toBe('auth');
    expect(decodo.classify({ protocol: 'http', status: 502, headers: {} })).toBe('failed');
  });
});
