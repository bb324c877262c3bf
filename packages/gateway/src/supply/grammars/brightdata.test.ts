import { describe, expect, it } from 'vitest';
import { brightdata } from './brightdata.ts';

const account = { username: 'brd-customer-hl_1a2b3c4d-zone-resi1', password: 'zonepass' };
const session = { key: 'user42:residential:job7:0', minutes: 30 };
const username = (targeting: Parameters<typeof brightdata.credentials>[1], s: typeof session | undefined) =>
  brightdata.credentials(account, targeting, s).username;

describe('Bright Data username', () => {
  it('appends each targeting it documents to the zone username, password unchanged', () => {
    expect(brightdata.credentials(account, {}, undefined)).toEqual(account);
    expect(username({ countries: ['US'] }, undefined)).toBe(`${account.username}-country-us`);
    expect(username({ countries: ['US'], states: ['new york'] }, undefined)).toBe(
      `${account.username}-country-us-state-ny`,
    );
    expect(username({ countries: ['US'], cities: ['san francisco'] }, undefined)).toBe(
      `${account.username}-country-us-city-sanfrancisco`,
    );
    expect(username({ countries: ['US'], zips: ['37501'] }, undefined)).toBe(
      `${account.username}-country-us-zip-37501`,
    );
    expect(username({ countries: ['US'], asns: [56386] }, undefined)).toBe(
      `${account.username}-country-us-asn-56386`,
    );
  });

  it('adds the session as alphanumerics only, the same for the same key, and no duration', () => {
    const first = username({ countries: ['DE'] }, session);
    expect(first).toMatch(new RegExp(`^${account.username}-country-de-session-[a-z0-9]{16}$`));
    expect(username({ countries: ['DE'] }, session)).toBe(first);
    expect(username({ countries: ['DE'] }, { key: 'user42:residential:job7:1', minutes: 30 })).not.toBe(
      first,
    );
    expect(username({}, { ...session, minutes: 5000 })).toBe(username({}, { ...session, minutes: 1 }));
  });

  it('refuses to express what Bright Data has no parameter for', () => {
    expect(brightdata.cannotExpress({ countries: ['US'], anonymous: true })).toBeNull();
    expect(brightdata.cannotExpress({ excludeCountries: ['RU'] })).toBe('excluded countries');
    expect(brightdata.cannotExpress({ countries: ['US'], excludeAsns: [16509] })).toBe('excluded ASNs');
    expect(brightdata.cannotExpress({ countries: ['DE'], states: ['bavaria'] })).toBe(
      'state targeting outside the US',
    );
    expect(brightdata.cannotExpress({ countries: ['US'], states: ['atlantis'] })).toMatch(
      /^state "atlantis"/,
    );
    expect(brightdata.cannotExpress({ countries: ['US'], cities: ['winston-salem'] })).toMatch(
      /^city "winston-salem"/,
    );
    expect(brightdata.cannotExpress({ countries: ['GB'], zips: ['SW1A 1AA'] })).toBe(
      'ZIP targeting outside the US',
    );
    expect(brightdata.cannotExpress({ countries: ['US', 'DE'], cities: ['berlin'] })).toMatch(
      /several countries/,
    );
    expect(() => brightdata.credentials(account, { excludeCountries: ['RU'] }, undefined)).toThrow(
      'brightdata cannot express excluded countries',
    );
  });

  it('reads no peers as no exit, 407 as our credentials, 402 as our balance unless a policy refused the target', () => {
    const http = (status: number, headers: Record<string, string> = {}) =>
      brightdata.classify({ protocol: 'http', status, headers });
    expect(http(502, { 'x-brd-err-code': 'no_peers', 'x-brd-error': 'No peers available' })).toBe('no-exit');
    expect(http(502, { 'x-brd-error': 'Residential Failed (target_502)' })).toBe('failed');
    expect(http(407)).toBe('auth');
    expect(http(402, { 'x-brd-err-code': 'client_10100' })).toBe('quota');
    expect(http(402, { 'x-brd-err-code': 'policy_20130' })).toBe('failed');
    expect(http(400)).toBe('bad-request');
    expect(brightdata.classify({ protocol: 'socks5', reply: 'auth' })).toBe('auth');
    expect(brightdata.classify({ protocol: 'socks5', reply: 0x04 })).toBe('failed');
  });
});
