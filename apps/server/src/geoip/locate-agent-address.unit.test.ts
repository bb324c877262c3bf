import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TestPlace, writeTestGeoipDatabases } from '../testing/geoip-test-databases.ts';
import { useGeoipDatabases } from './geoip-databases.ts';
import { locateAgentAddress } from './locate-agent-address.ts';

// Three loopback agents, each in a place of its own, as the hub's tests run them: the databases are
// written by the test (testing/mmdb-writer.ts) and the settings pointed at them in-process.

const PLACES: TestPlace[] = [
  {
    network: '127.0.0.11',
    country: 'US',
    state: 'Texas',
    city: 'Austin',
    zip: '78701',
    asn: 21928,
    asnName: 'T-Mobile USA, Inc.',
  },
  {
    network: '127.0.0.12',
    country: 'DE',
    state: 'Hesse',
    city: 'Frankfurt am Main',
    zip: '60311',
    asn: 24940,
    asnName: 'Hetzner Online GmbH',
  },
  {
    network: '127.0.0.13',
    country: 'GB',
    state: 'England',
    city: 'London',
    asn: 64_512,
    asnName: 'Example Home Broadband',
  },
];

const AUSTIN = {
  country: 'US',
  state: 'Texas',
  city: 'Austin',
  zip: '78701',
  asn: 21928,
  asnName: 'T-Mobile USA, Inc.',
  pool: 'mobile',
};
const FRANKFURT = {
  country: 'DE',
  state: 'Hesse',
  city: 'Frankfurt am Main',
  zip: '60311',
  asn: 24940,
  asnName: 'Hetzner Online GmbH',
  pool: 'datacenter',
};
const LONDON = {
  country: 'GB',
  state: 'England',
  city: 'London',
  zip: null,
  asn: 64_512,
  asnName: 'Example Home Broadband',
  pool: 'residential',
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'geoip-agents-'));
});
afterEach(() => useGeoipDatabases({ cityDb: null, asnDb: null }));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function databases(
  name: string,
  places: TestPlace[],
  options: Parameters<typeof writeTestGeoipDatabases>[2],
) {
  await mkdir(join(dir, name));
  return writeTestGeoipDatabases(join(dir, name), places, options);
}

describe('locateAgentAddress', () => {
  it('places three loopback agents in three places and pools (GeoLite2-City records, ASN CSV)', async () => {
    useGeoipDatabases(await databases('maxmind-csv', PLACES, {}));
    expect(await locateAgentAddress('127.0.0.11')).toEqual(AUSTIN);
    expect(await locateAgentAddress('127.0.0.12')).toEqual(FRANKFURT);
    expect(await locateAgentAddress('::ffff:127.0.0.13')).toEqual(LONDON);
    expect(await locateAgentAddress('127.0.0.14')).toBeNull();
  });

  it('reads @ip-location-db city records and a GeoLite2-ASN mmdb alike, in IPv4-only trees', async () => {
    useGeoipDatabases(
      await databases('package-mmdb', PLACES, {
        cityShape: 'ip-location-db',
        asnFormat: 'mmdb',
        ipVersion: 4,
      }),
    );
    expect(await locateAgentAddress('127.0.0.11')).toEqual(AUSTIN);
    expect(await locateAgentAddress('127.0.0.12')).toEqual(FRANKFURT);
    expect(await locateAgentAddress('127.0.0.13')).toEqual(LONDON);
    // An IPv4-only tree holds no IPv6 address (a lookup there would read the wrong bits).
    expect(await locateAgentAddress('2001:db8::1')).toBeNull();
  });

  it('is residential where the ASN database does not know the network, and not located without a country', async () => {
    const places: TestPlace[] = [
      { network: '10.1.0.0/16', country: 'FR', city: 'Paris' },
      { network: '2001:db8::/32', country: 'JP', city: 'Tokyo', asn: 9605, asnName: 'NTT DOCOMO, INC.' },
    ];
    useGeoipDatabases(await databases('partial', places, {}));
    expect(await locateAgentAddress('10.1.2.3')).toEqual({
      country: 'FR',
      state: null,
      city: 'Paris',
      zip: null,
      asn: null,
      asnName: null,
      pool: 'residential',
    });
    expect(await locateAgentAddress('2001:db8::7')).toMatchObject({
      country: 'JP',
      asn: 9605,
      pool: 'mobile',
    });
    expect(await locateAgentAddress('10.2.0.1')).toBeNull();
  });

  it('leaves loopback and private addresses unlocated with the packaged databases', async () => {
    useGeoipDatabases(await databases('switch', PLACES, {}));
    expect(await locateAgentAddress('127.0.0.11')).toEqual(AUSTIN);
    useGeoipDatabases({ cityDb: null, asnDb: null });
    expect(await locateAgentAddress('127.0.0.11')).toBeNull();
    expect(await locateAgentAddress('10.1.2.3')).toBeNull();
  });
});
