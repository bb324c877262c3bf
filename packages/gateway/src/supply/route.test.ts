import type { Targeting } from '@bytegate/contracts/targeting';
import { describe, expect, it } from 'vitest';
import { buildCatalog, catalogServes, targetingForCatalog } from './catalog.ts';
import { GRAMMAR_NAMES, type GrammarAdapter } from './grammar.ts';
import { grammarAdapter } from './grammars/index.ts';
import { networkBinding, networkExit, networkSourceIdOf, orderSources, readNetworkBinding } from './route.ts';
import type { ExitsSource, NetworkSource, Source } from './source.ts';
import { SourceHealth } from './source-health.ts';

/** An adapter that spells everything (the catalog tests route by the catalog alone). */
const everything: GrammarAdapter = {
  name: 'template',
  cannotExpress: () => null,
  credentials: (account) => account,
  classify: () => 'failed',
};

/** An adapter that spells only countries, as a plain function of the targeting (enough for routing). */
const countriesOnly: GrammarAdapter = {
  name: 'template',
  cannotExpress: (targeting) => (targeting.cities?.length ? 'city targeting' : null),
  credentials: (account, targeting, session) => ({
    username: `${account.username}-cc-${targeting.countries?.[0] ?? 'any'}${session ? `-s-${session.key.length}` : ''}`,
    password: account.password,
  }),
  classify: () => 'failed',
};

const own = (fields: Partial<ExitsSource> = {}): ExitsSource => ({
  id: 'own',
  name: 'Own residential exits',
  poolType: 'residential',
  kind: 'exits',
  weight: 100,
  costPerGbCents: 0,
  state: 'active',
  ...fields,
});

const network = (id: string, fields: Partial<NetworkSource> = {}): NetworkSource => ({
  id,
  name: `Network ${id}`,
  poolType: 'residential',
  kind: 'network',
  weight: 100,
  costPerGbCents: 120,
  state: 'active',
  endpoint: { protocol: 'http', host: '127.0.0.1', port: 7777 },
  account: { username: 'acct', password: 'secret' },
  adapter: countriesOnly,
  ...fields,
});

/** How often each source comes first over many orders. */
function firstShares(sources: Source[], targeting: Targeting, health = new SourceHealth()) {
  const counts = new Map<string, number>();
  for (let i = 0; i < 4000; i++) {
    const [first] = orderSources(sources, targeting, health, 'weight');
    if (first) {
      counts.set(first.id, (counts.get(first.id) ?? 0) + 1);
    }
  }
  return counts;
}

describe('orderSources', () => {
  it('leaves out sources that are off, draining, weightless or cannot spell the targeting', () => {
    const sources = [
      own({ state: 'off' }),
      network('a', { state: 'draining' }),
      network('b', { weight: 0 }),
      network('c'),
      network('d'),
    ];
    const health = new SourceHealth();
    expect(
      orderSources(sources, { countries: ['US'] }, health, 'weight')
        .map((s) => s.id)
        .sort(),
    ).toEqual(['c', 'd']);
    // A network that cannot spell city targeting never gets a city-targeted connection; our exits can.
    expect(
      orderSources([own(), network('c')], { countries: ['US'], cities: ['dallas'] }, health, 'weight').map(
        (s) => s.id,
      ),
    ).toEqual(['own']);
  });

  it('shares first places by weight', () => {
    const counts = firstShares([network('heavy', { weight: 300 }), network('light', { weight: 100 })], {});
    const heavy = (counts.get('heavy') ?? 0) / 4000;
    expect(heavy).toBeGreaterThan(0.68);
    expect(heavy).toBeLessThan(0.82);
  });

  it('fades a source that keeps failing for a country, and only for that country', () => {
    let now = 1_000_000;
    const health = new SourceHealth(() => now);
    for (let i = 0; i < 40; i++) {
      health.failed('bad', 'DE');
      health.opened('good', 'DE', 50);
    }
    const sources = [network('bad'), network('good')];
    const inGermany = firstShares(sources, { countries: ['DE'] }, health);
    expect((inGermany.get('good') ?? 0) / 4000).toBeGreaterThan(0.9);
    const inFrance = (firstShares(sources, { countries: ['FR'] }, health).get('good') ?? 0) / 4000;
    expect(inFrance).toBeGreaterThan(0.4);
    expect(inFrance).toBeLessThan(0.6);
    // Five minutes on, the failures are forgotten.
    now += 6 * 60_000;
    expect(health.score('bad', 'DE')).toBe(0.5);
  });

  it('breaks a tie by cost, and puts the cheapest first when cost is the preference', () => {
    const health = new SourceHealth();
    const cheap = network('cheap', { costPerGbCents: 80, weight: 1 });
    const dear = network('dear', { costPerGbCents: 300, weight: 1000 });
    for (let i = 0; i < 20; i++) {
      expect(orderSources([dear, cheap], {}, health, 'cost').map((s) => s.id)).toEqual(['cheap', 'dear']);
    }
    // Equal weight and health, the same draw: the cheaper goes first.
    const tied = orderSources(
      [network('x', { costPerGbCents: 300 }), network('y', { costPerGbCents: 90 })],
      {},
      health,
      'weight',
      () => 0.5,
    );
    expect(tied.map((s) => s.id)).toEqual(['y', 'x']);
  });
});

describe('catalogs in the routing', () => {
  const place = (
    country: string,
    fields: { state?: string; city?: string; zip?: string; asn?: number } = {},
  ) => ({
    country,
    state: fields.state ?? null,
    city: fields.city ?? null,
    zip: fields.zip ?? null,
    asn: fields.asn ?? null,
  });
  const catalog = buildCatalog([
    place('US', { state: 'New York', city: 'New York', zip: '10001', asn: 7922 }),
    place('US', { state: 'Texas', city: 'Dallas', asn: 7018 }),
    // Germany is listed without its cities: any city there is tried.
    place('DE'),
  ]);

  it('lets a network through only for the places its catalog lists, an empty catalog for any', () => {
    const cases: Array<[Targeting, boolean]> = [
      [{}, true],
      [{ countries: ['US'] }, true],
      [{ countries: ['FR'] }, false],
      [{ countries: ['FR', 'DE'] }, true],
      [{ countries: ['US'], cities: ['dallas'] }, true],
      [{ countries: ['US'], cities: ['houston'] }, false],
      [{ countries: ['US'], cities: ['houston', 'new york'] }, true],
      [{ countries: ['US'], states: ['texas'] }, true],
      [{ countries: ['US'], states: ['ohio'] }, false],
      [{ countries: ['US'], zips: ['10001'] }, true],
      [{ countries: ['US'], zips: ['90210'] }, false],
      [{ countries: ['US'], asns: [7018] }, true],
      [{ countries: ['US'], asns: [3320] }, false],
      [{ countries: ['DE'], cities: ['munich'] }, true],
      [{ excludeCountries: ['US'] }, true],
      [{ excludeCountries: ['US', 'DE'] }, false],
    ];
    for (const [targeting, serves] of cases) {
      expect({ targeting, serves: catalogServes(catalog, targeting) }).toEqual({ targeting, serves });
      expect(catalogServes(new Map(), targeting)).toBe(true);
      expect(catalogServes(undefined, targeting)).toBe(true);
    }
    // Names compare case-blind, as targeting names them (lower-case).
    expect(
      buildCatalog([place('US', { city: 'New York' })])
        .get('US')
        ?.cities.has('new york'),
    ).toBe(true);
  });

  it('sends a city-targeted connection only to the networks whose catalog lists the city, or that have none', () => {
    const health = new SourceHealth();
    const sources = [
      network('dallas', { adapter: everything, catalog: buildCatalog([place('US', { city: 'Dallas' })]) }),
      network('new-york', {
        adapter: everything,
        catalog: buildCatalog([place('US', { city: 'New York' })]),
      }),
      network('unknown', { adapter: everything }),
    ];
    const ids = (targeting: Targeting) =>
      orderSources(sources, targeting, health, 'weight')
        .map((source) => source.id)
        .sort();
    expect(ids({ countries: ['US'], cities: ['dallas'] })).toEqual(['dallas', 'unknown']);
    expect(ids({ countries: ['US'], cities: ['new york'] })).toEqual(['new-york', 'unknown']);
    expect(ids({ countries: ['US'] })).toEqual(['dallas', 'new-york', 'unknown']);
    expect(ids({ countries: ['JP'] })).toEqual(['unknown']);
  });
});

describe('several countries against a catalog', () => {
  const place = (country: string, city: string | null = null) => ({
    country,
    state: null,
    city,
    zip: null,
    asn: null,
  });
  // The US with its cities, Germany without (any city there is tried); no France.
  const catalog = buildCatalog([place('US', 'dallas'), place('US', 'new york'), place('DE')]);

  it('asks a network only for the targeted countries its catalog lists, in the customer’s order', () => {
    const cases: Array<[Targeting, Targeting]> = [
      [{ countries: ['FR', 'DE', 'US'] }, { countries: ['DE', 'US'] }],
      [{ countries: ['US', 'FR'] }, { countries: ['US'] }],
      // Dallas is listed in the US, and Germany lists no cities: both may have it.
      [
        { countries: ['US', 'DE'], cities: ['dallas'] },
        { countries: ['US', 'DE'], cities: ['dallas'] },
      ],
      // Munich is not among the US cities listed: only Germany may have it.
      [
        { countries: ['US', 'DE'], cities: ['munich'] },
        { countries: ['DE'], cities: ['munich'] },
      ],
      [{ countries: ['FR'] }, { countries: ['FR'] }],
      [{ countries: ['FR', 'JP'] }, { countries: ['FR', 'JP'] }],
      [{}, {}],
    ];
    for (const [targeting, asked] of cases) {
      expect({ targeting, asked: targetingForCatalog(catalog, targeting) }).toEqual({ targeting, asked });
      expect(targetingForCatalog(new Map(), targeting)).toBe(targeting);
      expect(targetingForCatalog(undefined, targeting)).toBe(targeting);
    }
  });

  it('routes to a one-country grammar what the catalog narrows to one country', () => {
    const oxylabs = grammarAdapter({ grammar: 'oxylabs' });
    const munich: Targeting = { countries: ['US', 'DE'], cities: ['munich'] };
    // Two countries with a city are more than Oxylabs can spell; Germany alone with it is not.
    expect(oxylabs.cannotExpress(munich)).not.toBeNull();
    const ids = (sources: Source[]) =>
      orderSources(sources, munich, new SourceHealth(), 'weight').map((source) => source.id);
    expect(ids([network('listed', { adapter: oxylabs, catalog })])).toEqual(['listed']);
    expect(ids([network('unknown', { adapter: oxylabs })])).toEqual([]);
    expect(networkExit(network('listed', { adapter: oxylabs, catalog }), munich, undefined)).toMatchObject({
      country: 'DE',
      upstream: { username: 'customer-acct-cc-DE-city-munich' },
    });
  });

  it('names in every grammar only the listed countries: all of them in a list, else one of them', () => {
    const session = { key: 'plan|sess-7|g1', minutes: 10 };
    const targeting: Targeting = { countries: ['FR', 'DE', 'US'] };
    for (const name of GRAMMAR_NAMES) {
      const adapter = grammarAdapter(
        name === 'template'
          ? { grammar: 'template', template: '{user}[-cc-{country}][-s-{session}]' }
          : { grammar: name },
      );
      const source = network(name, { adapter, catalog });
      for (const connection of [session, undefined]) {
        const exit = networkExit(source, targeting, connection);
        const { username, password } = exit.kind === 'upstream' ? exit.upstream : {};
        // The same as asking for the listed countries alone (a one-country grammar's pick among them is
        // a function of the session; without one, it is a random one of them), and never France.
        const asked = (countries: string[]) => adapter.credentials(source.account, { countries }, connection);
        const spelled = { name, username, password };
        if (connection) {
          expect(spelled).toEqual({ name, ...asked(['DE', 'US']) });
        } else {
          const either = [asked(['DE']), asked(['US']), asked(['DE', 'US'])];
          expect(either.map((credentials) => ({ name, ...credentials }))).toContainEqual(spelled);
        }
        expect(spelled).not.toEqual({ name, ...asked(['FR']) });
        expect([name, ['DE', 'US'].includes(exit.country)]).toEqual([name, true]);
      }
    }
    // Webshare takes a list: both listed countries, France left out.
    const webshare = network('webshare', { adapter: grammarAdapter({ grammar: 'webshare' }), catalog });
    expect(networkExit(webshare, targeting, undefined)).toMatchObject({
      upstream: { username: 'acct-de-us-rotate' },
    });
  });
});

describe('network exits and bindings', () => {
  it("spell the connection's targeting and session into the vendor credentials, under the source's id", () => {
    const source = network('n1');
    const exit = networkExit(source, { countries: ['US'] }, { key: 'plan|abc|g1', minutes: 10 });
    expect(exit.kind).toBe('upstream');
    expect(exit.kind === 'upstream' && exit.upstream).toEqual({
      protocol: 'http',
      host: '127.0.0.1',
      port: 7777,
      username: 'acct-cc-US-s-11',
      password: 'secret',
    });
    expect(networkSourceIdOf(exit.id)).toBe('n1');
    expect(networkSourceIdOf('3f1c2a9e-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('give each binding of a source its own generation', () => {
    const first = networkBinding('n1');
    const second = networkBinding('n1');
    expect(readNetworkBinding(first)?.sourceId).toBe('n1');
    expect(readNetworkBinding(first)?.generation).not.toBe(readNetworkBinding(second)?.generation);
    expect(readNetworkBinding('some-exit-id')).toBeUndefined();
  });
});

describe('SourceHealth', () => {
  it('keeps dials and alarms until drained, and takes a failed drain back', () => {
    const health = new SourceHealth();
    health.opened('a', 'US', 40);
    health.opened('a', 'US', 60);
    health.failed('a', 'US');
    health.alarm('a', 'the network refused our account credentials');
    const drained = health.drain();
    expect(drained.dials.get('a')).toEqual({ connects: 2, failures: 1, connectMsTotal: 100 });
    expect(drained.alarms.map((alarm) => alarm.alarm)).toEqual([
      'the network refused our account credentials',
    ]);
    expect(health.drain().dials.size).toBe(0);
    health.opened('a', 'US', 10);
    health.restore(drained);
    expect(health.drain().dials.get('a')).toEqual({ connects: 3, failures: 1, connectMsTotal: 110 });
    expect(health.connectMs('a', 'US')).toBe(110 / 3);
  });
});
