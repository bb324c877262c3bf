import { describe, expect, it } from 'vitest';
import { iproyal, lifetime } from './iproyal.ts';

const account = { username: 'username123', password: 'password321' };
const session = { key: 'user42:residential:job7:0', minutes: 30 };

describe('IPRoyal password', () => {
  it('puts the parameters in the password and leaves the username alone', () => {
    expect(iproyal.credentials(account, {}, undefined)).toEqual(account);
    expect(iproyal.credentials(account, { countries: ['US'], cities: ['dallas'] }, undefined)).toEqual({
      username: 'username123',
      password: 'password321_country-us_city-dallas',
    });
    expect(
      iproyal.credentials(
        account,
        { countries: ['US'], states: ['new york'], cities: ['new york'] },
        undefined,
      ).password,
    ).toBe('password321_country-us_state-newyork_city-newyork');
  });

  it('adds a session of exactly 8 alphanumerics and a lifetime in one unit', () => {
    const { password } = iproyal.credentials(account, { countries: ['DE'] }, session);
    expect(password).toMatch(/^password321_country-de_session-[A-Za-z0-9]{8}_lifetime-30m$/);
    expect(iproyal.credentials(account, { countries: ['DE'] }, session).password).toBe(password);
  });

  it('writes the lifetime from 1 minute to 7 days in the largest exact unit', () => {
    expect(lifetime(0)).toBe('1m');
    expect(lifetime(45)).toBe('45m');
    expect(lifetime(120)).toBe('2h');
    expect(lifetime(90)).toBe('90m');
    expect(lifetime(2880)).toBe('2d');
    expect(lifetime(100_000)).toBe('7d');
  });

  it('refuses ZIP codes, ASNs, states outside the US and exclusions', () => {
    expect(iproyal.cannotExpress({ countries: ['US'], states: ['texas'] })).toBeNull();
    expect(iproyal.cannotExpress({ countries: ['US'], zips: ['10001'] })).toBe('ZIP targeting');
    expect(iproyal.cannotExpress({ countries: ['US'], asns: [7922] })).toBe('ASN targeting');
    expect(iproyal.cannotExpress({ countries: ['DE'], states: ['bavaria'] })).toBe(
      'state targeting outside the US',
    );
    expect(iproyal.cannotExpress({ countries: ['FR'], cities: ['saint-denis'] })).toMatch(
      /^city "saint-denis"/,
    );
    expect(iproyal.cannotExpress({ excludeCountries: ['RU'] })).toBe('excluded countries');
  });

  it('reads 503 as no exit, 504 and 500 as failures, 407 as our credentials', () => {
    const http = (status: number) => iproyal.classify({ protocol: 'http', status, headers: {} });
    expect(http(503)).toBe('no-exit');
    expect(http(504)).toBe('failed');
    expect(http(500)).toBe('failed');
    expect(http(407)).toBe('auth');
  });
});
