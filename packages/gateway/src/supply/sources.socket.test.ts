import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { type Exit, InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { type FakeNetwork, startFakeNetwork } from '../testing/fake-networks.ts';
import { curl } from '../testing/sockets.ts';
import { parseUpstreamUrl } from '../tunnel/upstream.ts';
import { buildCatalog } from './catalog.ts';
import type { GrammarSpec } from './grammar.ts';
import { grammarAdapter } from './grammars/index.ts';
import type { ExitsSource, NetworkSource } from './source.ts';

// Wholesale networks as sources of a pool, through the real gateway: fake vendor networks on loopback
// read their vendor's own grammar and send each accepted connection out from the exit's 127.0.0.x
// address, so the origin says which exit carried it.

const plan: PlanAccess = {
  planId: 'plan-supply',
  login: 'bgsupply0001',
  password: 'Secret123',
  poolType: 'residential',
  threadLimit: 50,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};

let origin: Server;
let originPort: number;
let gateway: Gateway;
let proxyPort: number;
let socksPort: number;
let store: InMemoryGatewayStore;
let oxylabs: FakeNetwork;
let decodo: FakeNetwork;
let broken: FakeNetwork;
let webshare: FakeNetwork;

const ownExits: ExitsSource = {
  id: 'own-residential',
  name: 'Own residential exits',
  poolType: 'residential',
  kind: 'exits',
  weight: 100,
  costPerGbCents: 0,
  state: 'off',
};

function networkSource(
  id: string,
  fake: FakeNetwork,
  spec: GrammarSpec,
  fields: Partial<NetworkSource> = {},
) {
  const proxy = parseUpstreamUrl(fake.url);
  if (!proxy) {
    throw new Error(`cannot read ${fake.url}`);
  }
  const { username, password, ...endpoint } = proxy;
  const source: NetworkSource = {
    id,
    name: id,
    poolType: 'residential',
    kind: 'network',
    weight: 100,
    costPerGbCents: 120,
    state: 'active',
    endpoint,
    account: { username: username ?? '', password: password ?? '' },
    adapter: grammarAdapter(spec),
    ...fields,
  };
  return source;
}

/** Only these sources are on (the others off): each test routes through exactly what it names. */
function only(...sources: NetworkSource[]): void {
  for (const id of ['oxylabs', 'decodo', 'broken', 'template', 'webshare']) {
    const known = store.listSources('residential').find((source) => source.id === id);
    if (known) {
      store.setSource({ ...known, state: 'off' });
    }
  }
  for (const source of sources) {
    store.setSource(source);
  }
}

async function get(username: string, { socks = false } = {}) {
  const proxy = socks
    ? ['--socks5-hostname', `${username}:${plan.password}@127.0.0.1:${socksPort}`]
    : ['-x', `http://${username}:${plan.password}@127.0.0.1:${proxyPort}`];
  const { body, status } = await curl([...proxy, `http://127.0.0.1:${originPort}/`]);
  return { body, status };
}

const US_EXITS = [
  {
    address: '127.0.0.41',
    country: 'US',
    state: 'texas',
    stateCode: 'tx',
    city: 'dallas',
    zip: '75201',
    asn: 7018,
  },
  { address: '127.0.0.42', country: 'US', state: 'new york', stateCode: 'ny', city: 'new york', asn: 701 },
  { address: '127.0.0.43', country: 'US', state: 'texas', stateCode: 'tx', city: 'houston', asn: 7922 },
];
const DE_EXITS = [{ address: '127.0.0.44', country: 'DE', state: 'berlin', city: 'berlin', asn: 3320 }];

beforeAll(async () => {
  origin = createServer((request, response) => {
    response.end(`${request.socket.remoteAddress}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  [oxylabs, decodo, broken, webshare] = await Promise.all([
    startFakeNetwork({ grammar: 'oxylabs', exits: [...US_EXITS, ...DE_EXITS] }),
    startFakeNetwork({ grammar: 'decodo', protocol: 'socks5', exits: [...US_EXITS, ...DE_EXITS] }),
    startFakeNetwork({ grammar: 'oxylabs', exits: US_EXITS }),
    startFakeNetwork({ grammar: 'webshare', exits: [...US_EXITS, ...DE_EXITS] }),
  ]);
  store = new InMemoryGatewayStore().addPlan(plan).addExit({
    id: 'own-1',
    kind: 'direct',
    poolType: 'residential',
    country: 'US',
    localAddress: '127.0.0.45',
    isRisky: false,
  } satisfies Exit);
  store.setSource(ownExits);
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
    // Cheapest first: each test knows which source is tried first (weights are route.test.ts's).
    supplyPreference: 'cost',
  });
  const ports = await gateway.listen();
  proxyPort = ports.httpPort;
  socksPort = ports.socksPort as number;
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([oxylabs?.close(), decodo?.close(), broken?.close(), webshare?.close()]);
  await new Promise((resolve) => origin?.close(resolve));
});

beforeEach(() => {
  for (const fake of [oxylabs, decodo, broken, webshare]) {
    fake.seen.length = 0;
    fake.failing = false;
    fake.exhausted = false;
  }
  store.setSource(ownExits);
  gateway.sourceHealth.drain();
});

describe('a wholesale network as a source', () => {
  it('spells cr.us;sessid.abc as Oxylabs does, and keeps one exit IP for the session', async () => {
    only(networkSource('oxylabs', oxylabs, { grammar: 'oxylabs' }));
    const seenAt = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const { body, status } = await get(`${plan.login}__cr.us;sessid.abc`);
      expect(status).toBe(200);
      seenAt.add(body);
    }
    expect(seenAt.size).toBe(1);
    expect([...seenAt][0]).toMatch(/^127\.0\.0\.4[123]$/);
    const [first] = oxylabs.seen;
    expect(first?.username).toMatch(/^customer-fakeuser-cc-US-sessid-[A-Za-z0-9]+-sesstime-30$/);
    expect(first?.password).toBe('fakepass1');
    expect(first?.parsed).toMatchObject({ countries: ['US'], sessionSeconds: 1800 });
    expect(new Set(oxylabs.seen.map((seen) => seen.username)).size).toBe(1);
    // Another customer session is another vendor session.
    await get(`${plan.login}__cr.us;sessid.other`);
    expect(oxylabs.seen.at(-1)?.parsed?.session).not.toBe(first?.parsed?.session);
  });

  it('rotates without a session, and carries SOCKS5 through a SOCKS5 network', async () => {
    only(networkSource('decodo', decodo, { grammar: 'decodo' }));
    const seenAt = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const { body, status } = await get(`${plan.login}__cr.us`, { socks: i % 2 === 0 });
      expect(status).toBe(200);
      seenAt.add(body);
    }
    expect(seenAt.size).toBeGreaterThan(1);
    expect(decodo.seen.every((seen) => seen.username === 'user-spfake01-country-us')).toBe(true);
  });

  it('never sends a city-targeted connection to a network that cannot spell a city', async () => {
    // A template that spells Oxylabs' grammar without a city: it can carry country targeting only.
    const template = networkSource(
      'template',
      oxylabs,
      { grammar: 'template', template: 'customer-{user}[-cc-{country:upper}][-sessid-{session}]' },
      { costPerGbCents: 50 },
    );
    only(template, networkSource('decodo', decodo, { grammar: 'decodo' }, { costPerGbCents: 200 }));
    for (let i = 0; i < 4; i++) {
      expect(await get(`${plan.login}__cr.us;city.dallas`)).toEqual({ body: '127.0.0.41', status: 200 });
    }
    expect(oxylabs.seen).toEqual([]);
    expect(decodo.seen.map((seen) => seen.username)).toEqual(
      Array(4).fill('user-spfake01-country-us-city-dallas'),
    );
    // Country targeting goes to the template's network (the cheaper), spelled by the template.
    expect(await get(`${plan.login}__cr.de`)).toEqual({ body: '127.0.0.44', status: 200 });
    expect(oxylabs.seen.map((seen) => seen.username)).toEqual(['customer-fakeuser-cc-DE']);
  });
});

describe("a network's catalog", () => {
  it('sends a city-targeted connection to the network whose catalog lists the city, and none where no catalog lists the country', async () => {
    const city = (name: string) => ({ country: 'US', state: null, city: name, zip: null, asn: null });
    // Without catalogs the cheaper Oxylabs would take every connection (the cost preference).
    only(
      networkSource(
        'oxylabs',
        oxylabs,
        { grammar: 'oxylabs' },
        { costPerGbCents: 50, catalog: buildCatalog([city('New York')]) },
      ),
      networkSource(
        'decodo',
        decodo,
        { grammar: 'decodo' },
        { costPerGbCents: 200, catalog: buildCatalog([city('Dallas')]) },
      ),
    );
    for (let i = 0; i < 3; i++) {
      expect(await get(`${plan.login}__cr.us;city.dallas`)).toEqual({ body: '127.0.0.41', status: 200 });
    }
    expect(oxylabs.seen).toEqual([]);
    expect(decodo.seen.map((seen) => seen.username)).toEqual(
      Array(3).fill('user-spfake01-country-us-city-dallas'),
    );
    expect(await get(`${plan.login}__cr.us;city.new_york`)).toEqual({ body: '127.0.0.42', status: 200 });
    expect(oxylabs.seen.map((seen) => seen.username)).toEqual(['customer-fakeuser-cc-US-city-new_york']);
    // Both fake networks have German exits, but neither catalog lists Germany: no dial goes out.
    const { body, status } = await get(`${plan.login}__cr.de`);
    expect(status).toBe(400);
    expect(body).toContain('NO_RAY');
    expect(oxylabs.seen).toHaveLength(1);
    expect(decodo.seen).toHaveLength(3);
  });
});

describe('several countries against a catalog', () => {
  it('spells only the countries the catalog lists: one of them for Oxylabs, the list for Webshare', async () => {
    const country = (code: string) => ({ country: code, state: null, city: null, zip: null, asn: null });
    // Oxylabs takes one country: of cr.us,de its catalog lists Germany alone, so every connection asks
    // for Germany (the adapter's own pick would have been the US about half the time).
    only(
      networkSource(
        'oxylabs',
        oxylabs,
        { grammar: 'oxylabs' },
        { catalog: buildCatalog([country('DE'), country('FR')]) },
      ),
    );
    for (let i = 0; i < 8; i++) {
      expect(await get(`${plan.login}__cr.us,de`)).toEqual({ body: '127.0.0.44', status: 200 });
    }
    expect(new Set(oxylabs.seen.map((seen) => seen.username))).toEqual(new Set(['customer-fakeuser-cc-DE']));
    // Webshare takes a list: of cr.fr,us,de it names the two its catalog lists, in the customer's order.
    only(
      networkSource(
        'webshare',
        webshare,
        { grammar: 'webshare' },
        { catalog: buildCatalog([country('US'), country('DE')]) },
      ),
    );
    expect((await get(`${plan.login}__cr.fr,us,de`)).status).toBe(200);
    expect(webshare.seen.map((seen) => [seen.username, seen.parsed?.countries])).toEqual([
      ['fakeuser-us-de-rotate', ['US', 'DE']],
    ]);
  });
});

describe('failover and refusals', () => {
  it('moves a failing network to the next source within one connection', async () => {
    broken.failing = true;
    only(
      networkSource('broken', broken, { grammar: 'oxylabs' }, { costPerGbCents: 10 }),
      networkSource('oxylabs', oxylabs, { grammar: 'oxylabs' }, { costPerGbCents: 300 }),
    );
    // The cheaper (broken) network is tried first every time, and fails over to the other.
    for (let i = 0; i < 3; i++) {
      expect((await get(`${plan.login}__cr.us`)).status).toBe(200);
    }
    expect(broken.seen.map((seen) => seen.answer)).toEqual(['failed', 'failed', 'failed']);
    expect(oxylabs.seen).toHaveLength(3);
    expect(gateway.sourceHealth.drain().dials.get('broken')?.failures).toBe(broken.seen.length);
  });

  it("answers NO_RAY, not the vendor's words, when no network has an exit for the target", async () => {
    only(
      networkSource('oxylabs', oxylabs, { grammar: 'oxylabs' }),
      networkSource('broken', broken, { grammar: 'oxylabs' }),
    );
    const { body, status } = await get(`${plan.login}__cr.jp`);
    expect(status).toBe(400);
    expect(body).toContain('NO_RAY');
    expect(body.toLowerCase()).not.toMatch(/oxylabs|exit node|not found/);
    expect(oxylabs.seen.at(-1)?.answer).toBe('no-exit');
    expect(broken.seen.at(-1)?.answer).toBe('no-exit');
  });

  it("raises the source's alarm when the vendor refuses our account or its quota, and moves on", async () => {
    only(
      networkSource(
        'broken',
        broken,
        { grammar: 'oxylabs' },
        { account: { username: 'fakeuser', password: 'wrong' }, costPerGbCents: 1 },
      ),
      networkSource('oxylabs', oxylabs, { grammar: 'oxylabs' }),
    );
    oxylabs.exhausted = true;
    const { body, status } = await get(`${plan.login}__cr.us`);
    expect(status).toBe(502);
    expect(body).toContain('NO_HOST_CONNECTION');
    const { alarms } = gateway.sourceHealth.drain();
    expect(alarms.map((alarm) => [alarm.sourceId, alarm.alarm.split(' (')[0]]).sort()).toEqual([
      ['broken', 'the network refused our account credentials'],
      ['oxylabs', "the network says our account's traffic or credit is used up"],
    ]);
  });
});

describe('money', () => {
  it('attributes every billed byte to the source that carried it', async () => {
    await gateway.flushUsage();
    store.flushed.clear();
    only(
      networkSource('oxylabs', oxylabs, { grammar: 'oxylabs' }),
      networkSource('decodo', decodo, { grammar: 'decodo' }),
    );
    store.setSource({ ...ownExits, state: 'active' });
    for (let i = 0; i < 9; i++) {
      const username = i % 3 === 0 ? `${plan.login}__cr.us;state.texas` : `${plan.login}__cr.us`;
      expect((await get(username, { socks: i % 2 === 1 })).status).toBe(200);
    }
    await gateway.flushUsage();
    const usage = store.flushed.get(plan.planId);
    expect(usage).toBeDefined();
    const carried = Object.values(usage?.sourceBytes ?? {}).reduce((sum, bytes) => sum + bytes, 0);
    const extra = Object.values(usage?.sourceExtraBytes ?? {}).reduce((sum, bytes) => sum + bytes, 0);
    expect(carried).toBe(usage?.bytes);
    expect(extra).toBe(usage?.extraBytes);
    expect(extra).toBeGreaterThan(0);
    expect(
      Object.keys(usage?.sourceBytes ?? {}).every((id) =>
        ['oxylabs', 'decodo', 'own-residential'].includes(id),
      ),
    ).toBe(true);
  });
});
