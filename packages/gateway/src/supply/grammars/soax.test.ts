import { describe, expect, it } from 'vitest';
import { soax } from './soax.ts';

const account = { username: '123456', password: 'packagekey' };
const session = { key: 'user42:residential:job7:0', minutes: 10 };

describe('SOAX username', () => {
  it('spells country, region and city after package-ID, the package key as password', () => {
    expect(soax.credentials(account, {}, undefined)).toEqual({
      username: 'package-123456',
      password: 'packagekey',
    });
    expect(
      soax.credentials(
        account,
        { countries: ['US'], states: ['california'], cities: ['new york'] },
        undefined,
      ).username,
    ).toBe('package-123456-country-us-region-california-city-new_york');
    expect(soax.credentials({ ...account, username: 'package-123456' }, {}, undefined).username).toBe(
      'package-123456',
    );
  });

  it('adds sessionid and sessionlength in seconds, clamped to 86400', () => {
    expect(soax.credentials(account, { countries: ['US'] }, session).username).toMatch(
      /^package-123456-country-us-sessionid-[a-z0-9]{12}-sessionlength-600$/,
    );
    expect(soax.credentials(account, {}, { ...session, minutes: 1441 }).username).toMatch(
      /-sessionlength-86400$/,
    );
    expect(soax.credentials(account, {}, { ...session, minutes: 1 }).username).toMatch(/-sessionlength-60$/);
  });

  it('refuses ZIP codes, ASNs and exclusions', () => {
    expect(soax.cannotExpress({ countries: ['GB'], states: ['england'] })).toBeNull();
    expect(soax.cannotExpress({ countries: ['US'], zips: ['10001'] })).toBe('ZIP targeting');
    expect(soax.cannotExpress({ countries: ['US'], asns: [7922] })).toBe('ASN targeting');
    expect(soax.cannotExpress({ countries: ['US'], excludeCities: ['dallas'] })).toBe('excluded cities');
  });

  it('reads its 400 validation codes as our spelling and 407 as our credentials', () => {
    const http = (status: number, code: string) =>
      soax.classify({ protocol: 'http', status, headers: { 'x-soax-error': code } });
    expect(http(400, 'ERR_UNKNOWN_PARAM')).toBe('bad-request');
    expect(http(407, 'AUTH_FAILED')).toBe('auth');
  });
});
