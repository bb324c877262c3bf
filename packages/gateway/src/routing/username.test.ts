import { targetingMessages } from '@bytegate/contracts/targeting';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors.ts';
import {
  decodeCredential,
  isTargetFilter,
  loginOf,
  parseProxyUsername,
  withSavedTargeting,
} from './username.ts';

const login = 'a1b2c3d4e5f6a7b8c9d0';

function errorOf(username: string): { code: string; message: string } | null {
  try {
    parseProxyUsername(username);
    return null;
  } catch (error) {
    if (error instanceof GatewayError) {
      return { code: error.code, message: error.message };
    }
    throw error;
  }
}

describe('proxy username grammar', () => {
  it('reads a bare login as saved settings', () => {
    expect(parseProxyUsername(login)).toEqual({ login, params: {}, hasGeo: false });
  });

  it('reads the examples of providers.md section 5', () => {
    expect(parseProxyUsername(`${login}__cr.us`).params).toEqual({ countries: ['US'] });
    expect(parseProxyUsername(`${login}__cr.de,au`).params).toEqual({ countries: ['DE', 'AU'] });
    const sticky = parseProxyUsername(`${login}__cr.us;state.california,texas;sessid.job42;sessttl.15`);
    expect(sticky.params).toEqual({
      countries: ['US'],
      states: ['california', 'texas'],
      sessionId: 'job42',
      sessionTtlMinutes: 15,
    });
    expect(isTargetFilter(sticky.params)).toBe(true);
    expect(parseProxyUsername(`${login}__cr.us;zip.10001`).params).toEqual({
      countries: ['US'],
      zips: ['10001'],
    });
    expect(parseProxyUsername(`${login}__cr.gb;city.new_york;anon.1`).params).toEqual({
      countries: ['GB'],
      cities: ['new york'],
      anonymous: true,
    });
    const exclusions = parseProxyUsername(`${login}__nocr.ru,by;noasn.as16509,14618`);
    expect(exclusions.params).toEqual({ excludeCountries: ['RU', 'BY'], excludeAsns: [16509, 14618] });
    expect(isTargetFilter(exclusions.params)).toBe(false);
    expect(exclusions.hasGeo).toBe(true);
  });

  it('treats keys case-insensitively and keeps the session id as given', () => {
    expect(parseProxyUsername(`${login}__CR.Us;SessID.JobA`).params).toEqual({
      countries: ['US'],
      sessionId: 'JobA',
    });
  });

  it('takes "anon" alone as anon.1, and anon.0 to switch the filter off', () => {
    expect(parseProxyUsername(`${login}__anon`).params).toEqual({ anonymous: true });
    expect(parseProxyUsername(`${login}__anon.0`).params).toEqual({ anonymous: false });
    expect(parseProxyUsername(`${login}__anon.0`).hasGeo).toBe(false);
  });

  it('answers each error with its code', () => {
    expect(errorOf(`${login}__cr.us;nocr.ca`)).toEqual({
      code: 'PARAM_CONFLICT',
      message: 'Cannot set both countries and exclude_countries simultaneously.',
    });
    expect(errorOf(`${login}__state.texas`)).toEqual({
      code: 'PARAM_REQUIRES_COUNTRY',
      message: 'Countries must be specified when setting cities, states, zipcodes, or ASNs.',
    });
    expect(errorOf(`${login}__asn.7922`)?.code).toBe('PARAM_REQUIRES_COUNTRY');
    expect(errorOf(`${login}__cr.usa`)?.code).toBe('INVALID_VALUE');
    expect(errorOf(`${login}__sessttl.500`)?.code).toBe('INVALID_VALUE');
    expect(errorOf(`${login}__sessttl.0`)?.code).toBe('INVALID_VALUE');
    expect(errorOf(`${login}__country.us`)?.code).toBe('UNKNOWN_PARAM');
    expect(errorOf(`${login}__cr.us;cr.de`)?.code).toBe('DUPLICATE_PARAM');
    expect(errorOf(`${login}__cr.us;asn.abc`)?.code).toBe('INVALID_VALUE');
    expect(errorOf(`${login}__cr`)?.code).toBe('INVALID_VALUE');
    expect(errorOf(`${login}__cr.us;`)?.code).toBe('INVALID_VALUE');
    expect(errorOf(`${login}__cr.u$`)?.code).toBe('INVALID_VALUE');
    expect(errorOf(`${login}__anon.2`)?.code).toBe('INVALID_VALUE');
    expect(errorOf(`${login}__sessid.a,b`)?.code).toBe('INVALID_VALUE');
  });

  it('reads postal codes by the rule of saved settings, `_` standing for a space as in names', () => {
    expect(parseProxyUsername(`${login}__cr.gb;zip.sw1a_1aa`).params.zips).toEqual(['SW1A 1AA']);
    expect(parseProxyUsername(`${login}__cr.br;nozip.01310-100`).params.excludeZips).toEqual(['01310-100']);
    expect(errorOf(`${login}__cr.gb;zip._sw1a`)).toEqual({
      code: 'INVALID_VALUE',
      message: targetingMessages.zipcode(' SW1A'),
    });
    expect(errorOf(`${login}__cr.us;zip.12345678901`)?.code).toBe('INVALID_VALUE');
  });

  it("words the refusals it shares with saved settings by the contracts' messages", () => {
    expect(errorOf(`${login}__cr.usa`)?.message).toBe(targetingMessages.countryCode('USA'));
    expect(errorOf(`${login}__cr.us;asn.abc`)?.message).toBe(targetingMessages.asn('abc'));
    expect(errorOf(`${login}__noasn.as4294967296`)?.message).toBe(targetingMessages.asn('as4294967296'));
    expect(errorOf(`${login}__sessttl.121`)?.message).toBe(targetingMessages.sessionTtl);
    expect(errorOf(`${login}__cr.us;nocr.ca`)?.message).toBe(targetingMessages.bothCountryLists);
    expect(errorOf(`${login}__zip.10001`)?.message).toBe(targetingMessages.needsCountries);
  });

  it('refuses a login that cannot be one of ours as an unknown user, and over-long usernames', () => {
    expect(errorOf('short')?.code).toBe('NO_USER');
    expect(errorOf('has space in it')?.code).toBe('NO_USER');
    expect(errorOf(`${login}__cr.${'us,'.repeat(100)}us`)?.code).toBe('INVALID_VALUE');
  });

  it('bills the target filters at 2x, and countries, exclusions of countries and ASNs at 1x', () => {
    expect(isTargetFilter(parseProxyUsername(`${login}__cr.us;city.austin`).params)).toBe(true);
    expect(isTargetFilter(parseProxyUsername(`${login}__cr.us;nozip.10001`).params)).toBe(true);
    expect(isTargetFilter(parseProxyUsername(`${login}__cr.us;asn.7922`).params)).toBe(true);
    expect(isTargetFilter(parseProxyUsername(`${login}__cr.us;noasn.7922`).params)).toBe(false);
    expect(isTargetFilter(parseProxyUsername(`${login}__nocr.us`).params)).toBe(false);
  });
});

describe('percent-encoded credentials', () => {
  function decodeError(text: string): { code: string; message: string } | null {
    try {
      decodeCredential(text, 'username');
      return null;
    } catch (error) {
      return error instanceof GatewayError ? { code: error.code, message: error.message } : null;
    }
  }

  it('decodes escapes once, as a proxy URL carries `;`, `@` or `:`, and leaves plain text alone', () => {
    const escaped = `${login}__cr.us%3Bstate.texas%3bsessid.job42`;
    expect(decodeCredential(escaped, 'username')).toBe(`${login}__cr.us;state.texas;sessid.job42`);
    expect(parseProxyUsername(decodeCredential(escaped, 'username')).params).toEqual({
      countries: ['US'],
      states: ['texas'],
      sessionId: 'job42',
    });
    expect(decodeCredential('pa%40ss%3Aword', 'password')).toBe('pa@ss:word');
    expect(decodeCredential(`${login}__cr.de`, 'username')).toBe(`${login}__cr.de`);
    // Once only: an escaped escape stays an escape, which the grammar then refuses.
    expect(decodeCredential(`${login}__cr.us%253Bcity.austin`, 'username')).toBe(
      `${login}__cr.us%3Bcity.austin`,
    );
    expect(errorOf(decodeCredential(`${login}__cr.us%253Bcity.austin`, 'username'))?.code).toBe(
      'INVALID_VALUE',
    );
  });

  it('refuses a malformed escape with INVALID_VALUE, whatever follows', () => {
    for (const text of [`${login}__cr.us%zz`, `${login}__cr.us%4`, `${login}%`, `${login}__cr.%FF`]) {
      expect(decodeError(text), text).toEqual({
        code: 'INVALID_VALUE',
        message:
          'The username has a malformed percent-escape: write % as %25, and each escape as % and two hex digits of UTF-8',
      });
    }
    expect(() => decodeCredential('pa%zz', 'password')).toThrow(/^The password has a malformed/);
  });

  it('finds the login before the targeting, to check the password first', () => {
    expect(loginOf(`${login}__cr.us;nocr.ca`)).toBe(login);
    expect(loginOf(login)).toBe(login);
  });
});

describe('saved targeting under the login parameters', () => {
  const saved = {
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

  it('applies the saved settings to a bare login', () => {
    expect(withSavedTargeting(parseProxyUsername(login), saved)).toEqual({
      countries: ['DE'],
      states: ['berlin'],
      excludeAsns: [3320],
      anonymous: false,
    });
  });

  it('lets any location key of the login replace the saved location, keeping saved exclusions', () => {
    expect(withSavedTargeting(parseProxyUsername(`${login}__cr.fr`), saved)).toEqual({
      countries: ['FR'],
      excludeAsns: [3320],
      anonymous: false,
    });
    expect(
      withSavedTargeting(parseProxyUsername(`${login}__nocr.ru;noasn.7922`), {
        ...saved,
        excludeCountries: ['BY'],
      }),
    ).toEqual({ excludeCountries: ['RU', 'BY'], excludeAsns: [7922, 3320], anonymous: false });
  });

  it('overrides the anonymous filter and the session one by one', () => {
    expect(withSavedTargeting(parseProxyUsername(`${login}__anon.1;sessid.a1;sessttl.5`), saved)).toEqual({
      countries: ['DE'],
      states: ['berlin'],
      excludeAsns: [3320],
      anonymous: true,
      sessionId: 'a1',
      sessionTtlMinutes: 5,
    });
  });

  it('bills saved target filters at 2x as login ones are, but not saved countries alone', () => {
    expect(isTargetFilter(withSavedTargeting(parseProxyUsername(login), saved))).toBe(true);
    const countriesOnly = { ...saved, states: [], excludeAsns: [] };
    expect(isTargetFilter(withSavedTargeting(parseProxyUsername(login), countriesOnly))).toBe(false);
  });

  it('leaves a login alone when nothing is saved', () => {
    expect(withSavedTargeting(parseProxyUsername(`${login}__cr.us`), undefined)).toEqual({
      countries: ['US'],
    });
  });
});
