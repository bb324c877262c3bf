import { describe, expect, it } from 'vitest';
import { grammarAdapter } from './index.ts';

const account = { username: 'acct', password: 's3cret' };
const session = { key: 'user42:residential:job7:0', minutes: 15 };
const full =
  '{user}[-country-{country:lower}][-state-{state:sep=_}][-city-{city:lower:sep=_}][-zip-{zip}][-asn-{asn}][-session-{session}][-ttl-{minutes}]';

const adapter = (template: string, passwordTemplate?: string) =>
  grammarAdapter({ grammar: 'template', template, passwordTemplate });

describe('template grammar', () => {
  it('fills placeholders with their modifiers and drops optional segments without a value', () => {
    const generic = adapter(full);
    expect(generic.credentials(account, {}, undefined)).toEqual({ username: 'acct', password: 's3cret' });
    expect(
      generic.credentials(account, { countries: ['US'], cities: ['new york'] }, undefined).username,
    ).toBe('acct-country-us-city-new_york');
    expect(
      generic.credentials(
        account,
        { countries: ['US'], states: ['north carolina'], zips: ['27601'] },
        undefined,
      ).username,
    ).toBe('acct-country-us-state-north_carolina-zip-27601');
    expect(generic.credentials(account, { countries: ['US'], asns: [7922] }, session).username).toMatch(
      /^acct-country-us-asn-7922-session-[a-z0-9]{16}-ttl-15$/,
    );
    expect(
      adapter('{user}-{country:upper}[-city-{city:sep=}]').credentials(
        account,
        { countries: ['de'], cities: ['bad homburg'] },
        undefined,
      ).username,
    ).toBe('acct-DE-city-badhomburg');
    expect(
      adapter('{user}[_sess-{session}[_for-{seconds}s]]').credentials(account, {}, session).username,
    ).toMatch(/^acct_sess-[a-z0-9]{16}_for-900s$/);
  });

  it('fills a password template (IPRoyal style) and keeps {password} as the default', () => {
    const generic = adapter('{user}', '{password}[_country-{country:lower}][_session-{session}]');
    expect(generic.credentials(account, { countries: ['FR'] }, undefined)).toEqual({
      username: 'acct',
      password: 's3cret_country-fr',
    });
  });

  it('can express exactly the placeholders it holds', () => {
    const countryOnly = adapter('{user}[-cc-{country}][-sid-{session}]');
    expect(countryOnly.cannotExpress({ countries: ['US'], anonymous: true })).toBeNull();
    expect(countryOnly.cannotExpress({ countries: ['US'], cities: ['austin'] })).toBe('city targeting');
    expect(countryOnly.cannotExpress({ countries: ['US'], zips: ['10001'] })).toBe('ZIP targeting');
    expect(countryOnly.cannotExpress({ excludeCountries: ['RU'] })).toBe('excluded countries');
    expect(() =>
      countryOnly.credentials(account, { countries: ['US'], cities: ['austin'] }, undefined),
    ).toThrow('template cannot express city targeting');
    // A segment that needs a value the targeting lacks drops the value it has with it.
    expect(adapter('{user}[-geo-{country}-{city}]').cannotExpress({ countries: ['US'] })).toBe(
      'country targeting',
    );
    // A placeholder outside any segment must have a value.
    expect(adapter('{user}-{country}').cannotExpress({})).toBe(
      'targeting without a country (the template requires one)',
    );
  });

  it('refuses a bad template with an error naming the problem', () => {
    expect(() => adapter('{user}-{cty}')).toThrow('unknown placeholder {cty} in the username template');
    expect(() => adapter('{user}-{city:title}')).toThrow(
      'unknown modifier "title" on {city} in the username template',
    );
    expect(() => adapter('{user}-{city:upper:lower}')).toThrow(
      '{city} in the username template cannot be both upper and lower',
    );
    expect(() => adapter('{user}[-city-{city}')).toThrow(
      'unbalanced brackets: "[" at character 7 of the username template is never closed',
    );
    expect(() => adapter('{user}-city-{city}]')).toThrow(
      'unbalanced brackets: "]" at character 19 of the username template closes nothing',
    );
    expect(() => adapter('{user-{city}')).toThrow(
      '"{" at character 1 of the username template is never closed',
    );
    expect(() => adapter('{user}}')).toThrow('"}" at character 7 of the username template closes nothing');
    expect(() => adapter('customer-{country}')).toThrow('the username template has no {user}');
    expect(() => adapter('{user}-session-{session}')).toThrow('must be inside an optional [...] segment');
    expect(() => adapter('{user}', '{password}_{nope}')).toThrow(
      'unknown placeholder {nope} in the password template',
    );
  });
});
