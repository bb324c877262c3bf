import { describe, expect, it } from 'vitest';
import { HOSTING_ASNS, MOBILE_CARRIER_ASNS } from './pool-asns.ts';
import { poolFromAsn } from './pool-from-asn.ts';

describe('poolFromAsn', () => {
  it('puts the known carriers in mobile and the known clouds and hosts in datacenter, whatever their name', () => {
    expect(poolFromAsn(21928, 'T-Mobile USA, Inc.')).toBe('mobile');
    expect(poolFromAsn(6167, 'Verizon Business')).toBe('mobile');
    expect(poolFromAsn(20057, 'AT&T Enterprises, LLC')).toBe('mobile');
    expect(poolFromAsn(55836, 'Reliance Jio Infocomm Limited')).toBe('mobile');
    expect(poolFromAsn(16345, 'PJSC "Vimpelcom"')).toBe('mobile');
    expect(poolFromAsn(26611, null)).toBe('mobile');
    expect(poolFromAsn(16509, 'Amazon.com, Inc.')).toBe('datacenter');
    expect(poolFromAsn(24940, 'Hetzner Online GmbH')).toBe('datacenter');
    expect(poolFromAsn(14061, 'DigitalOcean, LLC')).toBe('datacenter');
    expect(poolFromAsn(13335, null)).toBe('datacenter');
    // The list wins over a name that says otherwise.
    expect(poolFromAsn(45430, 'ADVANCED WIRELESS NETWORK COMPANY LIMITED')).toBe('mobile');
    expect(poolFromAsn(36351, 'IBM Cloud')).toBe('datacenter');
  });

  it('keeps the lists about 40 each, with no network in both and none twice', () => {
    const mobile = MOBILE_CARRIER_ASNS.map(([asn]) => asn);
    const hosting = HOSTING_ASNS.map(([asn]) => asn);
    expect(mobile.length).toBeGreaterThanOrEqual(40);
    expect(hosting.length).toBeGreaterThanOrEqual(40);
    expect(new Set(mobile).size).toBe(mobile.length);
    expect(new Set(hosting).size).toBe(hosting.length);
    expect(mobile.filter((asn) => hosting.includes(asn))).toEqual([]);
  });

  it('leaves carriers’ fixed-line networks residential', () => {
    expect(poolFromAsn(7018, 'AT&T Enterprises, LLC')).toBe('residential');
    expect(poolFromAsn(3215, 'Orange S.A.')).toBe('residential');
    expect(poolFromAsn(3320, 'Deutsche Telekom AG')).toBe('residential');
  });

  it.each([
    ['Two Degrees Mobile Limited', 'mobile'],
    ['Bell Mobility', 'mobile'],
    ['Cable & Wireless Panama', 'mobile'],
    ['US CELLULAR', 'mobile'],
    ['Acme LTE Networks', 'mobile'],
    ['Mobilink GSM, Pakistan Mobile Communication Ltd.', 'mobile'],
    ['Rackspace Hosting', 'datacenter'],
    ['Yandex.Cloud LLC', 'datacenter'],
    ['NTT Global Data Centers EMEA GmbH', 'datacenter'],
    ['CHINANET SiChuan Telecom Internet Data Center', 'datacenter'],
    ['Example Datacentre Ltd', 'datacenter'],
    ['SECURED SERVERS LLC', 'datacenter'],
    ['Dedicated Server Co', 'datacenter'],
    ['Cheap VPS Inc', 'datacenter'],
    ['Atlanta Colo LLC', 'datacenter'],
    ['Mobile Cloud Ltd', 'datacenter'],
  ])('judges an unlisted network by the words of its name: %s is %s', (name, pool) => {
    expect(poolFromAsn(4_200_000_001, name)).toBe(pool);
  });

  it.each([
    'PSA AUTOMOBILES SA',
    'United Services Automobile Association',
    'Royal Automobile Club of Victoria Ltd',
    'Colorado Central Telecom',
    'Colombia Telecomunicaciones',
    'Columbus Networks',
    'Cloudwave Internet',
    'Hostinger International Limited',
    'Serverius Holding',
    'Observer Media',
    'Wirelessly Yours Broadband',
    'Comcast Cable Communications, LLC',
    'Deutsche Telekom AG',
    'Celtel Zambia',
    'Valtech Solutions',
  ])('does not take %s for a mobile carrier or a host', (name) => {
    expect(poolFromAsn(4_200_000_002, name)).toBe('residential');
  });

  it('is residential when the network is unknown', () => {
    expect(poolFromAsn(null, null)).toBe('residential');
    expect(poolFromAsn(4_200_000_003, null)).toBe('residential');
    expect(poolFromAsn(4_200_000_003, '')).toBe('residential');
  });
});
