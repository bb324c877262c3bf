import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { writeTestGeoipDatabases } from '../testing/geoip-test-databases.ts';
import { encodeWithoutPointers } from '../testing/mmdb-data.ts';
import { buildMmdb, mmdbUint16 } from '../testing/mmdb-writer.ts';
import { geoipDatabasePaths, lookUpAsn, useGeoipDatabases } from './geoip-databases.ts';
import { locateExitIp } from './locate-exit-ip.ts';

// GEOIP_CITY_DB and GEOIP_ASN_DB: the files are checked when the settings are read, and looked up once
// in use. The files are the test's own (testing/mmdb-writer.ts).

let dir: string;
let city: string;
let asnCsv: string;
let asnMmdb: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'geoip-settings-'));
  const places = [
    {
      network: '10.20.0.0/16',
      country: 'nl',
      state: 'North Holland',
      city: 'Amsterdam',
      zip: '1012 ab',
      asn: 1136,
    },
    { network: '192.168.7.0/24', country: 'US', asn: 7922, asnName: 'Comcast Cable Communications, LLC' },
  ];
  ({ cityDb: city, asnDb: asnCsv } = await writeTestGeoipDatabases(dir, places));
  await mkdir(join(dir, 'mmdb'));
  ({ asnDb: asnMmdb } = await writeTestGeoipDatabases(join(dir, 'mmdb'), places, { asnFormat: 'mmdb' }));
});
afterEach(() => useGeoipDatabases({ cityDb: null, asnDb: null }));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The message loadConfig stops with for these settings (empty when they are accepted). */
function settingsError(env: Record<string, string>): string {
  try {
    loadConfig(env);
    return '';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('GEOIP_CITY_DB and GEOIP_ASN_DB', () => {
  it('are read as absolute paths; unset, the packaged databases', () => {
    expect(loadConfig({}).geoip).toEqual({ cityDb: null, asnDb: null });
    expect(loadConfig({ GEOIP_CITY_DB: city, GEOIP_ASN_DB: asnCsv }).geoip).toEqual({
      cityDb: city,
      asnDb: asnCsv,
    });
    expect(loadConfig({ GEOIP_ASN_DB: asnMmdb, GEOIP_CITY_DB: ' ' }).geoip).toEqual({
      cityDb: null,
      asnDb: asnMmdb,
    });
  });

  it('stop start-up naming the setting and the file when it is missing or not a database', async () => {
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'hello\nworld\n');
    const missing = join(dir, 'GeoLite2-City.mmdb');
    expect(settingsError({ GEOIP_CITY_DB: missing })).toContain(`GEOIP_CITY_DB: ${missing} does not exist`);
    expect(settingsError({ GEOIP_CITY_DB: dir })).toContain(`GEOIP_CITY_DB: ${dir} is not a file`);
    expect(settingsError({ GEOIP_CITY_DB: text })).toContain(
      `GEOIP_CITY_DB: ${text} is not a MaxMind DB (.mmdb)`,
    );
    // A CSV is an ASN database only.
    expect(settingsError({ GEOIP_CITY_DB: asnCsv })).toContain(
      `GEOIP_CITY_DB: ${asnCsv} is not a MaxMind DB`,
    );
    expect(settingsError({ GEOIP_ASN_DB: text })).toContain(
      `GEOIP_ASN_DB: ${text} is neither a MaxMind DB (.mmdb, such as GeoLite2-ASN) nor a CSV of start,end,asn,name rows`,
    );
    const both = settingsError({ GEOIP_CITY_DB: missing, GEOIP_ASN_DB: text });
    expect(both).toContain('GEOIP_CITY_DB:');
    expect(both).toContain('GEOIP_ASN_DB:');
  });

  it('are set in-process by useGeoipDatabases, which refuses a bad file and keeps the files in use', () => {
    useGeoipDatabases({ cityDb: city, asnDb: asnMmdb });
    expect(() => useGeoipDatabases({ cityDb: join(dir, 'none.mmdb'), asnDb: null })).toThrow(
      `GEOIP_CITY_DB: ${join(dir, 'none.mmdb')} does not exist`,
    );
    expect(() => useGeoipDatabases({ cityDb: null, asnDb: city.replace('.mmdb', '.txt') })).toThrow(
      'GEOIP_ASN_DB:',
    );
    expect(geoipDatabasePaths()).toEqual({ cityDb: city, asnDb: asnMmdb });
  });
});

describe('an operator’s own databases', () => {
  it('locate private addresses too (a lab maps its own ranges), from a CSV or an mmdb of ASNs', async () => {
    const amsterdam = {
      country: 'NL',
      state: 'North Holland',
      city: 'Amsterdam',
      zip: '1012 AB',
      asn: 1136,
      asnName: null,
    };
    expect(await locateExitIp('10.20.30.40')).toBeNull();
    useGeoipDatabases({ cityDb: city, asnDb: asnCsv });
    expect(await locateExitIp('10.20.30.40')).toEqual(amsterdam);
    expect(await locateExitIp('192.168.7.1')).toEqual({
      country: 'US',
      state: null,
      city: null,
      zip: null,
      asn: 7922,
      asnName: 'Comcast Cable Communications, LLC',
    });
    expect(await locateExitIp('10.21.0.1')).toBeNull();
    useGeoipDatabases({ cityDb: city, asnDb: asnMmdb });
    expect(await locateExitIp('10.20.30.40')).toEqual(amsterdam);
    // The city database is the operator's; the ASNs may stay packaged (which has no private ranges).
    useGeoipDatabases({ cityDb: city, asnDb: null });
    expect(await locateExitIp('10.20.30.40')).toEqual({ ...amsterdam, asn: null });
  });

  it('read ASN CSVs as @ip-location-db writes them: numbers or addresses, both families, any order', async () => {
    const files = {
      'asn-ipv4-num.csv': '167772160,184549375,64500,"Ten, Inc."\n3232235520,3232301055,64501,Home LAN\n',
      'asn-ipv6-num.csv':
        '42540766411282592856903984951653826560,42540766490510755371168322545197776895,64502,Doc\n',
      // No family in the name: numbers above 2^32 - 1 are IPv6; rows out of order; a header; CRLF.
      'mixed.csv':
        'ip_range_start,ip_range_end,asn,name\r\n2001:db8::,2001:db8:ffff:ffff:ffff:ffff:ffff:ffff,64502,Doc\r\n' +
        '192.168.0.0,192.168.255.255,64501,Home LAN\r\n10.0.0.0,10.255.255.255,64500,"Say ""ten"""\r\n' +
        '42540766490510755371168322545197776896,42540766490510755371168322545197776896,64503,One\r\n' +
        '167772159,167772159,64504,Just below ten\r\n',
    };
    for (const [name, content] of Object.entries(files)) {
      await writeFile(join(dir, name), content);
    }
    useGeoipDatabases({ cityDb: null, asnDb: join(dir, 'asn-ipv4-num.csv') });
    expect(await lookUpAsn('10.1.2.3')).toEqual({ asn: 64500, name: 'Ten, Inc.' });
    expect(await lookUpAsn('192.168.1.1')).toEqual({ asn: 64501, name: 'Home LAN' });
    expect(await lookUpAsn('2001:db8::1')).toBeNull();
    useGeoipDatabases({ cityDb: null, asnDb: join(dir, 'asn-ipv6-num.csv') });
    expect(await lookUpAsn('2001:db8::1')).toEqual({ asn: 64502, name: 'Doc' });
    expect(await lookUpAsn('10.1.2.3')).toBeNull();
    useGeoipDatabases({ cityDb: null, asnDb: join(dir, 'mixed.csv') });
    expect(await lookUpAsn('192.168.1.1')).toEqual({ asn: 64501, name: 'Home LAN' });
    expect(await lookUpAsn('10.1.2.3')).toEqual({ asn: 64500, name: 'Say "ten"' });
    expect(await lookUpAsn('2001:db8::1')).toEqual({ asn: 64502, name: 'Doc' });
    expect(await lookUpAsn('9.255.255.255')).toEqual({ asn: 64504, name: 'Just below ten' });
    expect(await lookUpAsn('9.255.255.254')).toBeNull();
    expect(await lookUpAsn('11.0.0.0')).toBeNull();
    expect(await lookUpAsn('2001:db9::')).toEqual({ asn: 64503, name: 'One' });
    expect(await lookUpAsn('2001:db9::1')).toBeNull();
  });

  it('open an mmdb the reader refuses with a clear error, and again once the file is right', async () => {
    const path = join(dir, 'bad.mmdb');
    const good = buildMmdb([{ network: '10.9.0.0/16', data: { country: { iso_code: 'SE' } } }], {
      ipVersion: 6,
      databaseType: 'GeoLite2-City',
    });
    // Metadata with every key (the settings accept it), but a record size the format does not have.
    const marker = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex');
    const metadata = encodeWithoutPointers({
      binary_format_major_version: mmdbUint16(2),
      binary_format_minor_version: mmdbUint16(0),
      ip_version: mmdbUint16(6),
      node_count: 1,
      record_size: mmdbUint16(20),
    });
    await writeFile(path, Buffer.concat([Buffer.alloc(21), marker, metadata]));
    useGeoipDatabases({ cityDb: path, asnDb: null });
    await expect(locateExitIp('10.9.0.1')).rejects.toThrow(
      `${path} could not be opened as a MaxMind DB: Unsupported record size`,
    );
    await writeFile(path, good);
    expect(await locateExitIp('10.9.0.1')).toMatchObject({ country: 'SE', city: null });
  });
});
