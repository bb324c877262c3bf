import { describe, expect, it } from 'vitest';
import { webshare } from './webshare.ts';

const account = { username: 'myuser', password: 'mypass' };
const session = { key: 'user42:residential:job7:0', minutes: 30 };

describe('Webshare username', () => {
  it('lists every country, then the city, then -rotate for a rotating connection', () => {
    expect(webshare.credentials(account, {}, undefined)).toEqual({
      username: 'myuser-rotate',
      password: 'mypass',
    });
    expect(webshare.credentials(account, { countries: ['US'] }, undefined).username).toBe('myuser-us-rotate');
    expect(webshare.credentials(account, { countries: ['US', 'FR', 'DE'] }, undefined).username).toBe(
      'myuser-us-fr-de-rotate',
    );
    expect(
      webshare.credentials(account, { countries: ['US'], cities: ['los angeles'] }, undefined).username,
    ).toBe('myuser-us-city_los_angeles-rotate');
  });

  it('ends a sticky connection with a numeric session id and no duration', () => {
    const { username } = webshare.credentials(
      account,
      { countries: ['US', 'DE'], cities: ['berlin'] },
      session,
    );
    expect(username).toMatch(/^myuser-us-de-city_berlin-[1-9][0-9]{9}$/);
    expect(webshare.credentials(account, {}, { ...session, minutes: 1 }).username).toBe(
      webshare.credentials(account, {}, { ...session, minutes: 999 }).username,
    );
  });

  it('refuses states, ZIP codes, ASNs and exclusions', () => {
    expect(webshare.cannotExpress({ countries: ['US', 'DE'], cities: ['berlin', 'new york'] })).toBeNull();
    expect(webshare.cannotExpress({ countries: ['US'], states: ['texas'] })).toBe('state targeting');
    expect(webshare.cannotExpress({ countries: ['US'], zips: ['10001'] })).toBe('ZIP targeting');
    expect(webshare.cannotExpress({ countries: ['US'], asns: [7922] })).toBe('ASN targeting');
    expect(webshare.cannotExpress({ excludeCountries: ['RU'] })).toBe('excluded countries');
    expect(webshare.cannotExpress({ countries: ['US'], cities: ['st. louis'] })).toMatch(/^city "st. louis"/);
  });
});
