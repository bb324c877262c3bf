import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import maxmind, { Reader } from 'maxmind';
import { afterAll, describe, expect, it } from 'vitest';
import { encodePointer, MmdbDataSection } from './mmdb-data.ts';
import {
  addressBytes,
  buildMmdb,
  type MmdbNetwork,
  mmdbDouble,
  mmdbFloat,
  mmdbUint16,
  mmdbUint64,
  parseNetwork,
  writeMmdb,
} from './mmdb-writer.ts';

// Every file is read back with `maxmind`, the reader the server uses: what it answers is what counts.

/** A small deterministic generator (mulberry32), so that a failure can be run again. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const v4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

interface V4Net {
  start: number;
  prefix: number;
  data: { name: string; shared: { country: string } };
}
const sizeOf = (prefix: number) => 2 ** (32 - prefix);
const contains = (net: V4Net, address: number) =>
  address >= net.start && address < net.start + sizeOf(net.prefix);

/** The most specific network holding the address: what a reader must answer. */
const expected = (nets: V4Net[], address: number) =>
  nets.filter((net) => contains(net, address)).sort((a, b) => b.prefix - a.prefix)[0]?.data ?? null;

/** /8 to /32 networks: random ones, some nested in those before, some right after them (adjacent). */
function randomNetworks(seed: number, count: number): V4Net[] {
  const next = random(seed);
  const nets: V4Net[] = [];
  const keys = new Set<string>();
  while (nets.length < count) {
    const prefix = 8 + Math.floor(next() * 25);
    const roll = next();
    const base = nets[Math.floor(next() * nets.length)];
    let start: number;
    if (base && roll < 0.35 && prefix > base.prefix) {
      start = base.start + Math.floor((next() * sizeOf(base.prefix)) / sizeOf(prefix)) * sizeOf(prefix);
    } else if (base && roll < 0.55 && base.start + sizeOf(base.prefix) < 2 ** 32) {
      const after = base.start + sizeOf(base.prefix);
      start = Math.floor(after / sizeOf(prefix)) * sizeOf(prefix);
      start = start < after ? start + sizeOf(prefix) : start;
    } else {
      start = Math.floor((next() * 2 ** 32) / sizeOf(prefix)) * sizeOf(prefix);
    }
    const key = `${start}/${prefix}`;
    if (start + sizeOf(prefix) > 2 ** 32 || keys.has(key)) {
      continue;
    }
    keys.add(key);
    const country = ['US', 'DE', 'JP'][nets.length % 3] as string;
    nets.push({ start, prefix, data: { name: `net ${nets.length} ${key}`, shared: { country } } });
  }
  return nets;
}

const dir = await mkdtemp(join(tmpdir(), 'mmdb-writer-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('buildMmdb', () => {
  const nets = randomNetworks(7, 400);
  const networks: MmdbNetwork[] = nets.map((net) => ({
    network: `${v4(net.start)}/${net.prefix}`,
    data: net.data,
  }));
  const next = random(11);
  const probes = [
    ...nets.flatMap((net) => [
      net.start,
      net.start + sizeOf(net.prefix) - 1,
      net.start + Math.floor(next() * sizeOf(net.prefix)),
      net.start - 1,
      net.start + sizeOf(net.prefix),
    ]),
    ...Array.from({ length: 3000 }, () => Math.floor(next() * 2 ** 32)),
  ].filter((address) => address >= 0 && address < 2 ** 32);

  for (const ipVersion of [4, 6] as const) {
    for (const recordSize of [24, 28, 32] as const) {
      it(`answers the most specific network, or null, for ${probes.length} addresses (IPv${ipVersion} tree, ${recordSize}-bit records)`, () => {
        const reader = new Reader(buildMmdb(networks, { ipVersion, recordSize, databaseType: 'Test' }));
        expect(reader.metadata).toMatchObject({ ipVersion, recordSize, databaseType: 'Test' });
        const outside = probes.filter((address) => expected(nets, address) === null);
        expect(outside.length).toBeGreaterThan(100);
        for (const address of probes) {
          expect(reader.get(v4(address)), v4(address)).toEqual(expected(nets, address));
          if (ipVersion === 6) {
            expect(reader.get(`::ffff:${v4(address)}`), `::ffff:${v4(address)}`).toEqual(
              expected(nets, address),
            );
          }
        }
      });
    }
  }

  it('holds IPv6 networks beside the IPv4 ones, nested and adjacent, and nothing outside them', () => {
    const reader = new Reader(
      buildMmdb(
        [
          { network: '2001:db8::/32', data: 'doc' },
          { network: '2001:db8:1::/48', data: 'doc-1' },
          { network: '2001:db8:2::/48', data: 'doc-2' },
          { network: '2001:db8:1:2::1', data: 'one host' },
          { network: '2a02:6b8::/29', data: 'yandex' },
          { network: '10.0.0.0/8', data: 'ten' },
        ],
        { ipVersion: 6, databaseType: 'Test' },
      ),
    );
    expect(reader.get('2001:db8::1')).toBe('doc');
    expect(reader.get('2001:db8:1:ffff::1')).toBe('doc-1');
    expect(reader.get('2001:db8:2::')).toBe('doc-2');
    expect(reader.get('2001:db8:1:2::1')).toBe('one host');
    expect(reader.get('2001:db8:1:2::2')).toBe('doc-1');
    expect(reader.get('2001:db8:3::')).toBe('doc');
    expect(reader.get('2a02:6b8::2:242')).toBe('yandex');
    expect(reader.get('2001:db9::')).toBeNull();
    expect(reader.get('2001:db7:ffff:ffff:ffff:ffff:ffff:ffff')).toBeNull();
    expect(reader.get('10.9.8.7')).toBe('ten');
    expect(reader.get('::ffff:10.9.8.7')).toBe('ten');
    expect(reader.get('11.0.0.0')).toBeNull();
    expect(reader.get('::1')).toBeNull();
  });

  it('writes each distinct record once, and repeated parts of records as pointers', () => {
    const records = Array.from({ length: 500 }, (_, i) => ({
      network: `10.${i >> 8}.${i & 255}.0/24`,
      data: {
        city: { names: { en: 'Springfield' } },
        country: { iso_code: 'US', names: { en: 'United States' } },
      },
    }));
    const file = buildMmdb(records, { ipVersion: 4, databaseType: 'Test' });
    expect(file.indexOf('Springfield')).toBe(file.lastIndexOf('Springfield'));
    expect(file.length).toBeLessThan(8_000);

    // Records that differ but share parts: the shared parts once, the rest pointers.
    const places = ['Austin', 'Dallas', 'Houston'].map((city, i) => ({
      network: `192.0.2.${i * 4}/30`,
      data: { city: { names: { en: city } }, country: { iso_code: 'US', names: { en: 'United States' } } },
    }));
    const data = new MmdbDataSection();
    for (const place of places) {
      data.add(place.data);
    }
    expect(data.pointerCount).toBeGreaterThanOrEqual(8);
    const reader = new Reader(buildMmdb(places, { ipVersion: 4, databaseType: 'Test' }));
    expect(reader.get('192.0.2.5')).toEqual(places[1]?.data);
    expect(reader.get('192.0.2.11')).toEqual(places[2]?.data);
    const shared = buildMmdb(places, { ipVersion: 4, databaseType: 'Test' });
    expect(shared.indexOf('United States')).toBe(shared.lastIndexOf('United States'));
  });

  it('reads pointers of every length a data section of 1.5 MB needs (2, 3 and 4 bytes)', () => {
    // Each pair: a record with 600 bytes of its own and a tag, then one that points at the tag.
    const pad = 'x'.repeat(600);
    const networks = Array.from({ length: 2500 }, (_, i): MmdbNetwork[] => [
      { network: `10.${i >> 8}.${i & 255}.0/25`, data: { pad: `${pad}${i}`, tag: { id: `tag ${i}` } } },
      { network: `10.${i >> 8}.${i & 255}.128/25`, data: { other: i, tag: { id: `tag ${i}` } } },
    ]).flat();
    const reader = new Reader(buildMmdb(networks, { ipVersion: 6, databaseType: 'Test', recordSize: 28 }));
    for (const i of [0, 3, 900, 1800, 2499]) {
      expect(reader.get(`10.${i >> 8}.${i & 255}.200`)).toEqual({ other: i, tag: { id: `tag ${i}` } });
      expect(reader.get(`10.${i >> 8}.${i & 255}.1`)).toEqual({ pad: `${pad}${i}`, tag: { id: `tag ${i}` } });
    }
    expect([...encodePointer(100)]).toEqual([0x20, 100]);
    expect(encodePointer(2048 + 5).length).toBe(3);
    expect(encodePointer(526_336 + 5).length).toBe(4);
    expect([...encodePointer(2 ** 28)]).toEqual([0x38, 0x10, 0, 0, 0]);
  });

  it('writes every type the format has, and sizes past each long-size step', () => {
    const record = {
      empty: '',
      utf8: 'Zürich 東京 🌍',
      s28: 'a'.repeat(28),
      s29: 'b'.repeat(29),
      s284: 'c'.repeat(284),
      s285: 'd'.repeat(285),
      s65820: 'e'.repeat(65_820),
      s65821: 'f'.repeat(65_821),
      s70000: 'g'.repeat(70_000),
      u16: mmdbUint16(65_535),
      u16zero: mmdbUint16(0),
      u32: 4_294_967_295,
      i32: -2_147_483_648,
      i32small: -1,
      u64: mmdbUint64(2n ** 64n - 1n),
      u128: 2n ** 127n + 5n,
      double: mmdbDouble(-37.8964),
      plainDouble: 1.25,
      float: mmdbFloat(0.5),
      yes: true,
      no: false,
      bytes: Uint8Array.from([0, 1, 254, 255]),
      array: Array.from({ length: 300 }, (_, i) => i),
      map: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, { nested: [i, `v${i}`] }])),
    };
    const reader = new Reader(
      buildMmdb([{ network: '198.51.100.0/24', data: record }], { ipVersion: 4, databaseType: 'Test' }),
    );
    const read = reader.get('198.51.100.7') as unknown as Record<string, unknown>;
    expect(read).toEqual({
      ...record,
      u16: 65_535,
      u16zero: 0,
      u64: 2n ** 64n - 1n,
      double: -37.8964,
      float: 0.5,
      bytes: Buffer.from([0, 1, 254, 255]),
    });
  });

  it('refuses networks it cannot write, each with the reason', () => {
    const build =
      (network: string, ipVersion: 4 | 6 = 6) =>
      () =>
        buildMmdb([{ network, data: 'x' }], { ipVersion, databaseType: 'Test' });
    expect(build('10.0.0.1/8')).toThrow('10.0.0.1/8 has host bits set');
    expect(build('10.0.0.0/33')).toThrow('the prefix must be from /1 to /32');
    expect(build('10.0.0.0/0')).toThrow('the prefix must be from /1 to /32');
    expect(build('10.0.0.0/x')).toThrow('the prefix must be from /1 to /32');
    expect(build('example.com/8')).toThrow('example.com is not an IP address');
    expect(build('2001:db8::/32', 4)).toThrow('is an IPv6 network, and this database is IPv4 only');
    expect(build('::a00:0/104')).toThrow('is in ::/96, where the IPv4 networks go');
    expect(build('::ffff:a00:0/104')).toThrow('is in ::ffff:0:0/96');
    expect(() =>
      buildMmdb(
        [
          { network: '10.0.0.0/8', data: 1 },
          { network: '10.0.0.0/8', data: 2 },
        ],
        { ipVersion: 4, databaseType: 'Test' },
      ),
    ).toThrow('10.0.0.0/8 is given twice');
    // A record written after 16 MiB of data is further than a 24-bit record reaches.
    const huge = [
      { network: '10.0.0.0/8', data: 'h'.repeat(16_777_216) },
      { network: '10.1.0.0/16', data: 'after' },
    ];
    expect(() => buildMmdb(huge, { ipVersion: 4, databaseType: 'Test', recordSize: 24 })).toThrow(
      'use recordSize 28 or 32',
    );
    const wide = new Reader(buildMmdb(huge, { ipVersion: 4, databaseType: 'Test', recordSize: 28 }));
    expect(wide.get('10.1.1.1')).toBe('after');
    expect(wide.get('10.2.1.1')).toHaveLength(16_777_216);
  });

  it('writes a file `maxmind.open` reads, with the metadata given', async () => {
    const path = join(dir, 'test.mmdb');
    await writeMmdb(path, [{ network: '127.0.0.11', data: { country: { iso_code: 'US' } } }], {
      ipVersion: 6,
      databaseType: 'GeoLite2-City',
      languages: ['en', 'de'],
      description: { en: 'A test database' },
      buildEpoch: 1_750_000_000,
    });
    const reader = await maxmind.open(path);
    expect(reader.get('127.0.0.11')).toEqual({ country: { iso_code: 'US' } });
    expect(reader.get('127.0.0.12')).toBeNull();
    expect(reader.metadata).toMatchObject({
      binaryFormatMajorVersion: 2,
      binaryFormatMinorVersion: 0,
      buildEpoch: new Date(1_750_000_000_000),
      databaseType: 'GeoLite2-City',
      description: { en: 'A test database' },
      ipVersion: 6,
      languages: ['en', 'de'],
    });
  });

  it('parses networks and addresses as they are written', () => {
    expect(parseNetwork('127.0.0.11')).toEqual({ bytes: Uint8Array.from([127, 0, 0, 11]), prefixLength: 32 });
    expect(parseNetwork('2001:db8::/32').prefixLength).toBe(32);
    expect([...addressBytes('::ffff:1.2.3.4')].slice(10)).toEqual([255, 255, 1, 2, 3, 4]);
  });
});
