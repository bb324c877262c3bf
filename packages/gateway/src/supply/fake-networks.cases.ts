import type { FakeExit, FakeNetworkAnswer } from '../testing/fake-networks.ts';
import type { GrammarName, VendorRefusal } from './grammar.ts';

/**
 * Hand-written vendor credentials for the fake networks' socket test, each as the vendor's docs spell it
 * (not as our adapters do), with the answer the vendor documents for it.
 */

export type Vendor = Exclude<GrammarName, 'template'>;
export const VENDORS: Vendor[] = ['brightdata', 'oxylabs', 'decodo', 'iproyal', 'webshare', 'soax'];

const LA = {
  country: 'US',
  state: 'california',
  stateCode: 'ca',
  city: 'los angeles',
  zip: '90001',
  asn: 7018,
};

/** Eight exits in Los Angeles (so a session that keeps one is not luck), one in New York, one in Munich. */
export const EXITS: FakeExit[] = [
  ...Array.from({ length: 8 }, (_, i) => ({ address: `127.0.0.${10 + i}`, ...LA })),
  {
    address: '127.0.0.20',
    country: 'US',
    state: 'new york',
    stateCode: 'ny',
    city: 'new york',
    zip: '10001',
    asn: 701,
  },
  { address: '127.0.0.30', country: 'DE', state: 'bavaria', city: 'munich', zip: '80331', asn: 3320 },
];
export const LA_ADDRESSES = EXITS.slice(0, 8).map((exit) => exit.address);
export const NEW_YORK = '127.0.0.20';
export const MUNICH = '127.0.0.30';

export interface Case {
  what: string;
  username: string;
  password: string;
  /** The HTTP status, and a header the vendor documents for it. */
  status: number;
  header?: [string, RegExp];
  /** What the fake made of it, and (for a refusal) how the adapter reads its answer, when that differs. */
  answer: FakeNetworkAnswer;
  reads?: VendorRefusal;
  /** For an open tunnel: the exits it may have gone out from, and what the fake understood. */
  exits?: string[];
  parsed?: Record<string, unknown>;
}

const BD = 'brd-customer-hl_fake0001-zone-resi';
export const CASES: Record<Vendor, Case[]> = {
  brightdata: [
    {
      what: 'a city, no spaces',
      username: `${BD}-country-us-city-newyork`,
      password: 'zonepass1',
      status: 200,
      exits: [NEW_YORK],
      answer: 'open',
      parsed: { countries: ['US'], city: 'newyork' },
    },
    {
      what: 'a state code',
      username: `${BD}-country-us-state-ca-session-abc123`,
      password: 'zonepass1',
      status: 200,
      exits: LA_ADDRESSES,
      answer: 'open',
      parsed: { state: 'ca', session: 'abc123' },
    },
    {
      what: 'an ASN',
      username: `${BD}-country-de-asn-3320`,
      password: 'zonepass1',
      status: 200,
      exits: [MUNICH],
      answer: 'open',
      parsed: { asn: 3320 },
    },
    {
      what: 'another zone',
      username: 'brd-customer-hl_fake0001-zone-other-country-us',
      password: 'zonepass1',
      status: 407,
      answer: 'auth',
    },
    { what: 'a wrong password', username: BD, password: 'nope', status: 407, answer: 'auth' },
    {
      what: 'an upper-case country',
      username: `${BD}-country-US`,
      password: 'zonepass1',
      status: 400,
      answer: 'bad-request',
    },
    {
      what: 'a session with "_"',
      username: `${BD}-session-abc_1`,
      password: 'zonepass1',
      status: 400,
      answer: 'bad-request',
    },
    {
      what: 'an unknown parameter',
      username: `${BD}-country-us-sesstime-10`,
      password: 'zonepass1',
      status: 400,
      answer: 'bad-request',
    },
    {
      what: 'no peers in the country',
      username: `${BD}-country-fr`,
      password: 'zonepass1',
      status: 502,
      header: ['x-brd-err-code', /no_peers/],
      answer: 'no-exit',
    },
  ],
  oxylabs: [
    {
      what: 'state, city and session',
      username: 'customer-fakeuser-cc-US-st-us_california-city-los_angeles-sessid-abc123-sesstime-10',
      password: 'fakepass1',
      status: 200,
      exits: LA_ADDRESSES,
      answer: 'open',
      parsed: { state: 'us_california', city: 'los_angeles', session: 'abc123', sessionSeconds: 600 },
    },
    {
      what: 'a ZIP code',
      username: 'customer-fakeuser-cc-US-postalcode-10001',
      password: 'fakepass1',
      status: 200,
      exits: [NEW_YORK],
      answer: 'open',
    },
    {
      what: 'an ASN alone',
      username: 'customer-fakeuser-ASN-3320',
      password: 'fakepass1',
      status: 200,
      exits: [MUNICH],
      answer: 'open',
      parsed: { asn: 3320 },
    },
    {
      what: 'an ASN with a country (only the country applies)',
      username: 'customer-fakeuser-cc-US-ASN-3320',
      password: 'fakepass1',
      status: 200,
      exits: [...LA_ADDRESSES, NEW_YORK],
      answer: 'open',
      parsed: { asn: undefined },
    },
    {
      what: 'a wrong password',
      username: 'customer-fakeuser',
      password: 'nope',
      status: 407,
      header: ['x-error-description', /user authentication failed/],
      answer: 'auth',
    },
    {
      what: "Decodo's session key",
      username: 'customer-fakeuser-cc-US-session-abc',
      password: 'fakepass1',
      status: 400,
      header: ['x-error-description', /unsupported parameters/],
      answer: 'bad-request',
    },
    {
      what: 'a sesstime over 1440',
      username: 'customer-fakeuser-sessid-abc-sesstime-1441',
      password: 'fakepass1',
      status: 400,
      answer: 'bad-request',
    },
    {
      what: 'a four-digit ZIP',
      username: 'customer-fakeuser-cc-US-postalcode-9021',
      password: 'fakepass1',
      status: 400,
      answer: 'bad-request',
    },
    {
      what: 'no exit in the country',
      username: 'customer-fakeuser-cc-FR',
      password: 'fakepass1',
      status: 502,
      header: ['x-error-description', /exit node not found/],
      answer: 'no-exit',
    },
  ],
  decodo: [
    {
      what: 'city and session',
      username: 'user-spfake01-country-us-city-new_york-session-abc-sessionduration-30',
      password: 'fakepass1',
      status: 200,
      exits: [NEW_YORK],
      answer: 'open',
      parsed: { city: 'new_york', session: 'abc', sessionSeconds: 1800 },
    },
    {
      what: 'a state',
      username: 'user-spfake01-country-us-state-california',
      password: 'fakepass1',
      status: 400,
      answer: 'bad-request',
    },
    {
      what: 'a duration without a session',
      username: 'user-spfake01-country-us-sessionduration-5',
      password: 'fakepass1',
      status: 400,
      answer: 'bad-request',
    },
    { what: 'a wrong password', username: 'user-spfake01', password: 'nope', status: 407, answer: 'auth' },
    {
      what: 'no exit in the country',
      username: 'user-spfake01-country-fr',
      password: 'fakepass1',
      status: 502,
      answer: 'no-exit',
      reads: 'failed',
    },
  ],
  iproyal: [
    {
      what: 'parameters in the password',
      username: 'fakeuser',
      password: 'fakepass1_country-us_city-newyork_session-AbCd1234_lifetime-30m',
      status: 200,
      exits: [NEW_YORK],
      answer: 'open',
      parsed: { city: 'newyork', session: 'AbCd1234', sessionSeconds: 1800 },
    },
    {
      what: 'a state',
      username: 'fakeuser',
      password: 'fakepass1_country-us_state-california',
      status: 200,
      exits: LA_ADDRESSES,
      answer: 'open',
    },
    {
      what: 'a session not of 8 characters',
      username: 'fakeuser',
      password: 'fakepass1_country-us_session-abc',
      status: 500,
      answer: 'bad-request',
      reads: 'failed',
    },
    {
      what: 'a lifetime in two units',
      username: 'fakeuser',
      password: 'fakepass1_session-AbCd1234_lifetime-30m15s',
      status: 500,
      answer: 'bad-request',
      reads: 'failed',
    },
    {
      what: 'a lifetime over 7 days',
      username: 'fakeuser',
      password: 'fakepass1_session-AbCd1234_lifetime-8d',
      status: 500,
      answer: 'bad-request',
      reads: 'failed',
    },
    {
      what: 'a city with "_", which splits it',
      username: 'fakeuser',
      password: 'fakepass1_country-us_city-new_york',
      status: 500,
      answer: 'bad-request',
      reads: 'failed',
    },
    {
      what: 'a wrong password',
      username: 'fakeuser',
      password: 'nope_country-us',
      status: 407,
      answer: 'auth',
    },
    {
      what: 'no exit in the country',
      username: 'fakeuser',
      password: 'fakepass1_country-fr',
      status: 503,
      answer: 'no-exit',
    },
  ],
  webshare: [
    {
      what: 'countries, a city and a session',
      username: 'fakeuser-us-de-city_munich-1234',
      password: 'fakepass1',
      status: 200,
      exits: [MUNICH],
      answer: 'open',
      parsed: { countries: ['US', 'DE'], city: 'munich', session: '1234' },
    },
    {
      what: 'rotate',
      username: 'fakeuser-us-rotate',
      password: 'fakepass1',
      status: 200,
      exits: [...LA_ADDRESSES, NEW_YORK],
      answer: 'open',
      parsed: { session: undefined },
    },
    {
      what: 'a session and rotate',
      username: 'fakeuser-us-1234-rotate',
      password: 'fakepass1',
      status: 400,
      answer: 'bad-request',
    },
    {
      what: 'a country after the city',
      username: 'fakeuser-city_munich-de',
      password: 'fakepass1',
      status: 400,
      answer: 'bad-request',
    },
    {
      what: 'a state',
      username: 'fakeuser-us-state_california',
      password: 'fakepass1',
      status: 400,
      answer: 'bad-request',
    },
    { what: 'a wrong password', username: 'fakeuser-us', password: 'nope', status: 407, answer: 'auth' },
    {
      what: 'no exit in the country',
      username: 'fakeuser-fr-rotate',
      password: 'fakepass1',
      status: 502,
      answer: 'no-exit',
      reads: 'failed',
    },
  ],
  soax: [
    {
      what: 'region, city and session',
      username:
        'package-123456-country-us-region-california-city-los_angeles-sessionid-abc-sessionlength-600',
      password: 'packagekey1',
      status: 200,
      exits: LA_ADDRESSES,
      answer: 'open',
      parsed: { state: 'california', city: 'los_angeles', session: 'abc', sessionSeconds: 600 },
    },
    {
      what: 'the older "+" city',
      username: 'package-123456-country-us-city-new+york',
      password: 'packagekey1',
      status: 200,
      exits: [NEW_YORK],
      answer: 'open',
    },
    {
      what: 'an upper-case country',
      username: 'package-123456-country-US',
      password: 'packagekey1',
      status: 400,
      header: ['x-soax-error', /^ERR_INVALID_VALUE$/],
      answer: 'bad-request',
    },
    {
      what: 'a repeated rule',
      username: 'package-123456-country-us-country-gb',
      password: 'packagekey1',
      status: 400,
      header: ['x-soax-error', /^ERR_DUPLICATE_PARAM$/],
      answer: 'bad-request',
    },
    {
      what: 'a hyphen in a city',
      username: 'package-123456-country-us-city-los-angeles',
      password: 'packagekey1',
      status: 400,
      header: ['x-soax-error', /^ERR_UNKNOWN_PARAM$/],
      answer: 'bad-request',
    },
    {
      what: 'a wrong package key',
      username: 'package-123456-country-us',
      password: 'nope',
      status: 407,
      header: ['x-soax-error', /^AUTH_FAILED$/],
      answer: 'auth',
    },
    {
      what: 'no exit in the country',
      username: 'package-123456-country-fr',
      password: 'packagekey1',
      status: 502,
      answer: 'no-exit',
      reads: 'failed',
    },
  ],
};
