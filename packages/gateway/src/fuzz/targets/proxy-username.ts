import type { Targeting } from '@bytegate/contracts/targeting';
import fc from 'fast-check';
import { GatewayError, type GatewayErrorCode } from '../../errors.ts';
import { type ParsedUsername, parseProxyUsername } from '../../routing/username.ts';
import { assert, assertEqual, defineTarget, mutatedSeeds } from '../harness.ts';

/** The codes the username grammar refuses with (errors.ts): any other error is a bug. */
const USERNAME_CODES = new Set<GatewayErrorCode>([
  'NO_USER',
  'UNKNOWN_PARAM',
  'DUPLICATE_PARAM',
  'INVALID_VALUE',
  'PARAM_CONFLICT',
  'PARAM_REQUIRES_COUNTRY',
]);

const USERNAME_DICTIONARY = [
  '__',
  ';',
  '.',
  ',',
  '_',
  '-',
  'cr.us',
  'nocr.',
  'state.',
  'city.new_york',
  'zip.',
  'asn.as',
  'noasn.',
  'sessid.',
  'sessttl.120',
  'anon',
  '.0',
  'AS4294967296',
];

const value = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const countryCode = fc.stringMatching(/^[a-zA-Z]{2}$/);
const zipCode = fc.stringMatching(/^[a-zA-Z0-9-]{2,10}$/);
const asnNumber = fc.integer({ min: 1, max: 4_294_967_295 });

/** One key of the grammar: how it is written in a login and what it must parse to. */
type Param = { key: string; text: string; apply: (params: Targeting) => void };

const list = <T>(item: fc.Arbitrary<T>) => fc.array(item, { minLength: 1, maxLength: 4 });
const param = (key: string, arbitrary: fc.Arbitrary<{ text: string; apply: (params: Targeting) => void }>) =>
  arbitrary.map((each): Param => ({ key, ...each }));

const location = {
  cr: param(
    'cr',
    list(countryCode).map((codes) => ({
      text: codes.join(','),
      apply: (p) => {
        p.countries = codes.map((code) => code.toUpperCase());
      },
    })),
  ),
  nocr: param(
    'nocr',
    list(countryCode).map((codes) => ({
      text: codes.join(','),
      apply: (p) => {
        p.excludeCountries = codes.map((code) => code.toUpperCase());
      },
    })),
  ),
  state: param(
    'state',
    list(value).map((names) => ({
      text: names.join(','),
      apply: (p) => {
        p.states = names.map(asPlace);
      },
    })),
  ),
  nostate: param(
    'nostate',
    list(value).map((names) => ({
      text: names.join(','),
      apply: (p) => {
        p.excludeStates = names.map(asPlace);
      },
    })),
  ),
  city: param(
    'city',
    list(value).map((names) => ({
      text: names.join(','),
      apply: (p) => {
        p.cities = names.map(asPlace);
      },
    })),
  ),
  nocity: param(
    'nocity',
    list(value).map((names) => ({
      text: names.join(','),
      apply: (p) => {
        p.excludeCities = names.map(asPlace);
      },
    })),
  ),
  zip: param(
    'zip',
    list(zipCode).map((codes) => ({
      text: codes.join(','),
      apply: (p) => {
        p.zips = codes.map((code) => code.toUpperCase());
      },
    })),
  ),
  nozip: param(
    'nozip',
    list(zipCode).map((codes) => ({
      text: codes.join(','),
      apply: (p) => {
        p.excludeZips = codes.map((code) => code.toUpperCase());
      },
    })),
  ),
  asn: param(
    'asn',
    list(fc.tuple(asnNumber, fc.constantFrom('', 'as', 'AS'))).map((asns) => ({
      text: asns.map(([n, prefix]) => `${prefix}${n}`).join(','),
      apply: (p) => {
        p.asns = asns.map(([n]) => n);
      },
    })),
  ),
  noasn: param(
    'noasn',
    list(fc.tuple(asnNumber, fc.constantFrom('', 'as', 'AS'))).map((asns) => ({
      text: asns.map(([n, prefix]) => `${prefix}${n}`).join(','),
      apply: (p) => {
        p.excludeAsns = asns.map(([n]) => n);
      },
    })),
  ),
};
const other = {
  sessid: param(
    'sessid',
    value.map((id) => ({
      text: id,
      apply: (p) => {
        p.sessionId = id;
      },
    })),
  ),
  sessttl: param(
    'sessttl',
    fc.integer({ min: 1, max: 120 }).map((minutes) => ({
      text: String(minutes).padStart(1 + (minutes % 3 === 0 ? 1 : 0), '0'),
      apply: (p) => {
        p.sessionTtlMinutes = minutes;
      },
    })),
  ),
  anon: param(
    'anon',
    fc.constantFrom('', '0', '1').map((flag) => ({
      text: flag,
      apply: (p) => {
        p.anonymous = flag !== '0';
      },
    })),
  ),
};

function asPlace(name: string): string {
  return name.toLowerCase().replace(/_/g, ' ');
}

/** Keys that replace the saved location (username.ts GEO_KEYS). */
const GEO_KEYS = new Set(['cr', 'nocr', 'state', 'nostate', 'city', 'nocity', 'zip', 'nozip', 'asn']);

interface GeneratedUsername {
  username: string;
  expected: ParsedUsername;
}

/**
 * A valid username: a login and a consistent set of keys (never countries with excluded countries;
 * state, city, ZIP and ASN only with countries), in any order and letter case, with what it parses to.
 */
const validUsername: fc.Arbitrary<GeneratedUsername> = fc
  .record({
    login: fc.stringMatching(/^[A-Za-z0-9]{8,32}$/),
    countries: fc.oneof(fc.constant('none'), fc.constant('cr'), fc.constant('nocr')),
    picked: fc.subarray([
      location.state,
      location.nostate,
      location.city,
      location.nocity,
      location.zip,
      location.nozip,
      location.asn,
      location.noasn,
      other.sessid,
      other.sessttl,
      other.anon,
    ]),
  })
  .chain(({ login, countries, picked }) =>
    fc.record({
      login: fc.constant(login),
      params: fc.tuple(
        ...(countries === 'none' ? [] : [location[countries]]),
        ...picked.filter(
          (arbitrary) =>
            countries === 'cr' ||
            (arbitrary !== location.state &&
              arbitrary !== location.city &&
              arbitrary !== location.zip &&
              arbitrary !== location.asn),
        ),
      ),
    }),
  )
  .chain(({ login, params }) =>
    fc.record({
      login: fc.constant(login),
      params: fc.shuffledSubarray(params, { minLength: params.length, maxLength: params.length }),
      upper: fc.array(fc.boolean(), { minLength: params.length, maxLength: params.length }),
    }),
  )
  .map(({ login, params, upper }) => {
    const expected: Targeting = {};
    const parts = params.map((each, i) => {
      each.apply(expected);
      const key = upper[i] ? each.key.toUpperCase() : each.key;
      return each.key === 'anon' && each.text === '' ? key : `${key}.${each.text}`;
    });
    const username = parts.length > 0 ? `${login}__${parts.join(';')}` : login;
    return {
      username,
      expected: { login, params: expected, hasGeo: params.some((each) => GEO_KEYS.has(each.key)) },
    };
  })
  .filter(({ username }) => Buffer.byteLength(username) <= 255);

type Outcome = { parsed: ParsedUsername } | { code: GatewayErrorCode };

function parse(username: string): Outcome {
  try {
    return { parsed: parseProxyUsername(username) };
  } catch (error) {
    if (error instanceof GatewayError && USERNAME_CODES.has(error.code)) {
      return { code: error.code };
    }
    throw error;
  }
}

const ALPHABET = 'aAzZ09_-.,;_';

/**
 * The proxy username grammar: any text parses or is refused with one of its codes (never another
 * error), what it parses to is normalised as the rest of the gateway expects, and every generated
 * valid username reads back as built.
 */
export const proxyUsernameTarget = defineTarget<{ username: string; expected?: ParsedUsername }>({
  name: 'proxy-username',
  covers: 'parseProxyUsername: login__key.value,value;key.value',
  inputs: (seeds) =>
    fc.oneof(
      { weight: 4, arbitrary: validUsername },
      {
        weight: 4,
        arbitrary: mutatedSeeds(seeds, USERNAME_DICTIONARY).map((bytes) => ({
          username: bytes.toString('utf8'),
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.stringMatching(/^[a-z0-9]{8,12}__$/),
            fc.string({ unit: fc.constantFrom(...ALPHABET, 'cr', 'asn', 'sessttl', 'anon'), maxLength: 30 }),
          )
          .map(([login, rest]) => ({ username: login + rest })),
      },
      {
        weight: 1,
        arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((username) => ({ username })),
      },
    ),
  fromCorpus: (seed) => [{ username: seed.toString('utf8').replace(/\n$/, '') }],
  check({ username, expected }) {
    const outcome = parse(username);
    if ('parsed' in outcome) {
      const { login, params } = outcome.parsed;
      assert(/^[A-Za-z0-9]{8,32}$/.test(login), `login ${JSON.stringify(login)}`);
      assert(Buffer.byteLength(username) <= 255, 'a username over 255 bytes was taken');
      for (const code of [...(params.countries ?? []), ...(params.excludeCountries ?? [])]) {
        assert(/^[A-Z]{2}$/.test(code), `country ${JSON.stringify(code)}`);
      }
      for (const asn of [...(params.asns ?? []), ...(params.excludeAsns ?? [])]) {
        assert(Number.isInteger(asn) && asn >= 1 && asn <= 4_294_967_295, `ASN ${asn}`);
      }
      const ttl = params.sessionTtlMinutes;
      assert(ttl === undefined || (Number.isInteger(ttl) && ttl >= 1 && ttl <= 120), `sessttl ${ttl}`);
      assert(!(params.countries && params.excludeCountries), 'countries with excluded countries');
    }
    if (expected) {
      assertEqual(outcome, { parsed: expected }, 'a valid username did not read back as built');
    }
  },
});
