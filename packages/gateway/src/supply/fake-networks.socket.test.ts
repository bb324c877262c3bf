import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Targeting } from '@bytegate/contracts/targeting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeNetwork, startFakeNetwork } from '../testing/fake-networks.ts';
import { dialHttpProxy, dialSocks5Proxy, type ProxyDial } from '../testing/proxy-dial.ts';
import {
  CASES,
  type Case,
  EXITS,
  LA_ADDRESSES,
  MUNICH,
  VENDORS,
  type Vendor,
} from './fake-networks.cases.ts';
import type { VendorRefusal } from './grammar.ts';
import { grammarAdapter } from './grammars/index.ts';

/**
 * The fake wholesale networks on real sockets. First, that each reads its vendor's grammar and refuses as
 * the vendor documents, with hand-written vendor credentials (fake-networks.cases.ts). Then each adapter's
 * credentials through its vendor's fake: the fake understood the target the adapter meant, and a session
 * keeps one exit address across connections.
 */

type Protocol = 'http' | 'socks5';

let origin: Server;
let originPort: number;
const networks = new Map<string, FakeNetwork>();
const network = (vendor: Vendor, protocol: Protocol = 'http') =>
  networks.get(`${vendor}/${protocol}`) as FakeNetwork;

beforeAll(async () => {
  // The origin answers with the address the connection came from: the exit the fake chose.
  origin = createServer((request, response) => response.end(request.socket.remoteAddress));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  for (const vendor of VENDORS) {
    for (const protocol of ['http', 'socks5'] as const) {
      networks.set(
        `${vendor}/${protocol}`,
        await startFakeNetwork({ grammar: vendor, protocol, exits: EXITS }),
      );
    }
  }
});

afterAll(async () => {
  await Promise.all([...networks.values()].map((fake) => fake.close()));
  await new Promise((resolve) => origin.close(resolve));
});

const dial = (vendor: Vendor, protocol: Protocol, credentials: { username: string; password: string }) =>
  (protocol === 'http' ? dialHttpProxy : dialSocks5Proxy)(
    network(vendor, protocol).port,
    credentials,
    originPort,
  );

const classify = (vendor: Vendor, dialled: ProxyDial): VendorRefusal =>
  grammarAdapter({ grammar: vendor }).classify(
    dialled.status === 'auth'
      ? { protocol: 'socks5', reply: 'auth' }
      : { protocol: 'http', status: dialled.status, headers: dialled.headers },
  );

const first = (vendor: Vendor, answer: Case['answer']) =>
  CASES[vendor].find((row) => row.answer === answer) as Case;

describe.each(VENDORS)('the fake %s network', (vendor) => {
  it.each(CASES[vendor].map((row) => [row.what, row] as const))('over HTTP: %s', async (_what, row) => {
    const dialled = await dial(vendor, 'http', row);
    expect(dialled.status).toBe(row.status);
    if (row.header) {
      expect(dialled.headers[row.header[0]]).toMatch(row.header[1]);
    }
    const seen = network(vendor).seen.at(-1);
    expect(seen).toMatchObject({ username: row.username, password: row.password, answer: row.answer });
    if (row.answer === 'open') {
      expect(row.exits).toContain(dialled.body);
      expect(seen?.exit).toBe(dialled.body);
      expect(seen?.parsed).toMatchObject(row.parsed ?? {});
    } else {
      expect(classify(vendor, dialled)).toBe(row.reads ?? row.answer);
    }
  });

  it('over SOCKS5: opens; fails RFC 1929 for wrong credentials and a bad spelling; replies 0x01 for no exit', async () => {
    const open = first(vendor, 'open');
    expect(open.exits).toContain((await dial(vendor, 'socks5', open)).body);
    expect((await dial(vendor, 'socks5', first(vendor, 'auth'))).status).toBe('auth');
    expect((await dial(vendor, 'socks5', first(vendor, 'bad-request'))).status).toBe('auth');
    expect((await dial(vendor, 'socks5', first(vendor, 'no-exit'))).status).toBe(0x01);
    expect(network(vendor, 'socks5').seen.map((seen) => seen.answer)).toEqual([
      'open',
      'auth',
      'bad-request',
      'no-exit',
    ]);
  });

  it('answers an exhausted account as the vendor does, and an outage with its generic failure', async () => {
    const fake = network(vendor);
    const open = first(vendor, 'open');
    fake.exhausted = true;
    const exhausted = await dial(vendor, 'http', open);
    fake.exhausted = false;
    fake.failing = true;
    const failing = await dial(vendor, 'http', open);
    fake.failing = false;
    expect(classify(vendor, exhausted)).toBe('quota');
    expect(classify(vendor, failing)).toBe('failed');
    expect(fake.seen.slice(-2).map((seen) => seen.answer)).toEqual(['quota', 'failed']);
  });
});

/** Per vendor: the richest Los Angeles targeting it can express, and how its fake must have read it. */
const THROUGH: Record<
  Vendor,
  { targeting: Targeting; understood: Record<string, unknown>; session: RegExp }
> = {
  brightdata: {
    targeting: {
      countries: ['US'],
      states: ['california'],
      cities: ['los angeles'],
      zips: ['90001'],
      asns: [7018],
    },
    understood: { countries: ['US'], state: 'ca', city: 'losangeles', zip: '90001', asn: 7018 },
    session: /^[a-z0-9]{16}$/,
  },
  oxylabs: {
    targeting: { countries: ['US'], states: ['california'], cities: ['los angeles'], zips: ['90001'] },
    understood: {
      countries: ['US'],
      state: 'us_california',
      city: 'los_angeles',
      zip: '90001',
      sessionSeconds: 1200,
    },
    session: /^[a-z0-9]{12}$/,
  },
  decodo: {
    targeting: { countries: ['US'], cities: ['los angeles'] },
    understood: { countries: ['US'], city: 'los_angeles', sessionSeconds: 1200 },
    session: /^[a-z0-9]{12}$/,
  },
  iproyal: {
    targeting: { countries: ['US'], states: ['california'], cities: ['los angeles'] },
    understood: { countries: ['US'], state: 'california', city: 'losangeles', sessionSeconds: 1200 },
    session: /^[A-Za-z0-9]{8}$/,
  },
  webshare: {
    targeting: { countries: ['US'], cities: ['los angeles'] },
    understood: { countries: ['US'], city: 'los_angeles' },
    session: /^[1-9][0-9]{9}$/,
  },
  soax: {
    targeting: { countries: ['US'], states: ['california'], cities: ['los angeles'] },
    understood: { countries: ['US'], state: 'california', city: 'los_angeles', sessionSeconds: 1200 },
    session: /^[a-z0-9]{12}$/,
  },
};

describe.each(VENDORS)('the %s adapter through its fake network', (vendor) => {
  const adapter = grammarAdapter({ grammar: vendor });

  it.each(['http', 'socks5'] as const)(
    'over %s: the target it meant, one exit per session',
    async (protocol) => {
      const fake = network(vendor, protocol);
      const { targeting, understood, session: sessionId } = THROUGH[vendor];
      expect(adapter.cannotExpress(targeting)).toBeNull();
      const session = { key: `${vendor}:${protocol}:job1:0`, minutes: 20 };
      const sticky = adapter.credentials(fake.account, targeting, session);
      const exits = [];
      for (let i = 0; i < 3; i += 1) {
        exits.push((await dial(vendor, protocol, sticky)).body);
      }
      expect(LA_ADDRESSES).toContain(exits[0]);
      expect(exits).toEqual([exits[0], exits[0], exits[0]]);
      const seen = fake.seen.at(-1);
      expect(seen?.answer).toBe('open');
      expect(seen?.parsed).toMatchObject(understood);
      expect(seen?.parsed?.session).toMatch(sessionId);

      // Rotating, the same target goes out from more than one of the eight exits.
      const rotating = adapter.credentials(fake.account, targeting, undefined);
      const spread = new Set<string | undefined>();
      for (let i = 0; i < 8; i += 1) {
        spread.add((await dial(vendor, protocol, rotating)).body);
      }
      expect([...spread].every((exit) => LA_ADDRESSES.includes(exit as string))).toBe(true);
      expect(spread.size).toBeGreaterThan(1);
      expect(fake.seen.at(-1)?.parsed?.session).toBeUndefined();

      const germany = await dial(
        vendor,
        protocol,
        adapter.credentials(fake.account, { countries: ['DE'] }, undefined),
      );
      expect(germany.body).toBe(MUNICH);
    },
  );
});
