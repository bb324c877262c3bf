import { describe, expect, it } from 'vitest';
import { oxylabs } from './oxylabs.ts';

const account = { username: 'USER', password: 'PASS' };
const session = { key: 'user42:residential:job7:0', minutes: 10 };
const username = (
  targeting: Parameters<typeof oxylabs.credentials>[1],
  s: typeof session | undefined = undefined,
) => oxylabs.credentials(account, targeting, s).username;

describe('Oxylabs username', () => {
  it('spells each targeting it documents after customer-USER, password unchanged', () => {
    expect(oxylabs.credentials(account, {}, undefined)).toEqual({
      username: 'customer-USER',
      password: 'PASS',
    });
    expect(username({ countries: ['US'] })).toBe('customer-USER-cc-US');
    expect(username({ countries: ['US'], states: ['california'], cities: ['new york'] })).toBe(
      'customer-USER-cc-US-st-us_california-city-new_york',
    );
    expect(username({ countries: ['US'], states: ['north carolina'] })).toBe(
      'customer-USER-cc-US-st-us_north_carolina',
    );
    expect(username({ countries: ['US'], zips: ['90210'] })).toBe('customer-USER-cc-US-postalcode-90210');
    expect(username({ asns: [21928] })).toBe('customer-USER-ASN-21928');
    // An operator who wrote the prefix in the source's URL does not get it twice.
    expect(oxylabs.credentials({ username: 'customer-USER', password: 'PASS' }, {}, undefined).username).toBe(
      'customer-USER',
    );
  });

  it('adds sessid and sesstime, the minutes clamped to 1..1440', () => {
    const sticky = username({ countries: ['US'], cities: ['new york'] }, session);
    expect(sticky).toMatch(/^customer-USER-cc-US-city-new_york-sessid-[a-z0-9]{12}-sesstime-10$/);
    expect(username({}, { ...session, minutes: 5000 })).toMatch(/-sesstime-1440$/);
    expect(username({}, { ...session, minutes: 0 })).toMatch(/-sesstime-1$/);
  });

  it('refuses what Oxylabs cannot express', () => {
    expect(
      oxylabs.cannotExpress({ countries: ['US'], cities: ['los angeles'], anonymous: false }),
    ).toBeNull();
    expect(oxylabs.cannotExpress({ countries: ['US'], asns: [21928] })).toMatch(
      /^ASN targeting with a location/,
    );
    expect(oxylabs.cannotExpress({ countries: ['DE'], states: ['bavaria'] })).toBe(
      'state targeting outside the US',
    );
    expect(oxylabs.cannotExpress({ countries: ['US'], zips: ['9021'] })).toMatch(/^ZIP code "9021"/);
    expect(oxylabs.cannotExpress({ countries: ['GB'], zips: ['SW1A 1AA'] })).toBe(
      'ZIP targeting outside the US',
    );
    expect(oxylabs.cannotExpress({ countries: ['FR'], cities: ["l'isle-adam"] })).toMatch(
      /^city "l'isle-adam"/,
    );
    expect(oxylabs.cannotExpress({ countries: ['US'], excludeCities: ['dallas'] })).toBe('excluded cities');
    // One state and one of two cities, each picked alone, could name Dallas, California.
    expect(
      oxylabs.cannotExpress({ countries: ['US'], states: ['california'], cities: ['los angeles', 'dallas'] }),
    ).toBe('a list of states, cities, ZIP codes or ASNs combined with another of them');
    expect(
      oxylabs.cannotExpress({ countries: ['US'], states: ['california'], cities: ['los angeles'] }),
    ).toBeNull();
    expect(oxylabs.cannotExpress({ countries: ['US'], excludeZips: ['10001'] })).toBe('excluded ZIP codes');
  });

  it('reads its X-Error-Description: traffic limit is quota, exit node not found is no exit', () => {
    const http = (status: number, description?: string) =>
      oxylabs.classify({
        protocol: 'http',
        status,
        headers: description === undefined ? {} : { 'x-error-description': description },
      });
    expect(
      http(407, 'Access denied: user authentication failed. Please check your credentials and try again.'),
    ).toBe('auth');
    expect(http(407, 'Access denied: traffic limit reached. Please contact support.')).toBe('quota');
    expect(http(502, 'Bad gateway: exit node not found (session ended). Try using different filters.')).toBe(
      'no-exit',
    );
    expect(http(525)).toBe('no-exit');
    expect(http(502, 'Bad gateway: client disconnected. Please try again.')).toBe('failed');
    expect(http(400, 'Bad request: unsupported parameters were used.')).toBe('bad-request');
    expect(http(504)).toBe('failed');
  });
});
