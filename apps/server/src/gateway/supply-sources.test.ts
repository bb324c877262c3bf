import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { type FakeNetwork, startFakeNetwork } from '@bytegate/gateway/testing/fake-networks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { importCatalog } from '../services/supply/import-catalog.ts';
import { learnCatalogLocation } from '../services/supply/learn-catalog-location.ts';
import { addSource, changeSource } from '../services/supply/sources.ts';
import { buyDatacenterPlan, type GatewayFixture, startGatewayFixture } from '../testing/gateway-fixture.ts';
import { queryRows } from '../testing/test-server.ts';

const run = promisify(execFile);

// A wholesale network added as a source of the datacenter pool, through the use case behind
// `bytegate sources add`: the running gateway routes by it within a refresh, spells the targeting in the
// vendor's grammar, and every byte it carries lands in the source's day, in the usage flush's transaction.
describe.each(testDatabaseKinds())('sources of supply over the database on %s', (kind) => {
  let fixture: GatewayFixture;
  let network: FakeNetwork;

  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
    network = await startFakeNetwork({
      grammar: 'oxylabs',
      exits: [
        { address: '127.0.0.51', country: 'US', city: 'dallas' },
        { address: '127.0.0.52', country: 'US', city: 'austin' },
      ],
    });
  });
  afterAll(async () => {
    await fixture?.close();
    await network?.close();
  });

  async function curlThrough(username: string, password: string) {
    const { stdout } = await run('curl', [
      '-s',
      '-p',
      '-w',
      '\n%{http_code} %{size_request} %{size_header} %{size_download}',
      '-x',
      `http://${username}:${password}@127.0.0.1:${fixture.gateway.httpPort}`,
      `${fixture.originUrl}/`,
    ]);
    const cut = stdout.lastIndexOf('\n');
    const [status, ...sizes] = stdout
      .slice(cut + 1)
      .split(' ')
      .map(Number);
    return { body: stdout.slice(0, cut), status, sizes };
  }

  it('routes cr.us;sessid.abc through an added Oxylabs network in its grammar, and bills the source to the byte', async () => {
    const ctx = { db: fixture.server.database.db, config: fixture.server.config };
    const plan = await buyDatacenterPlan(fixture.server);
    const source = await addSource(ctx, {
      input: {
        name: 'Oxylabs US',
        pool: 'datacenter',
        grammar: 'oxylabs',
        url: network.url,
        costPerGb: '1.20',
      },
      reason: 'new supply',
      actor: CLI_ACTOR,
    });
    expect(source).toMatchObject({ kind: 'network', costPerGbCents: 120, weight: 100, state: 'active' });
    await changeSource(ctx, {
      source: 'Own datacenter exits',
      settings: { state: 'off' },
      reason: 'the network only',
      actor: CLI_ACTOR,
    });
    await fixture.gateway.store.refresh();

    const seenAt = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const answer = await curlThrough(`${plan.login}__cr.us;sessid.abc`, plan.password);
      expect(answer.status).toBe(200);
      seenAt.add(answer.body);
    }
    expect(seenAt.size).toBe(1);
    expect([...seenAt][0]).toMatch(/^from 127\.0\.0\.5[12]$/);
    expect(network.seen).toHaveLength(3);
    expect(network.seen[0]?.username).toMatch(/^customer-fakeuser-cc-US-sessid-[A-Za-z0-9]+-sesstime-30$/);

    await fixture.gateway.flush();
    const [day] = await queryRows<{ carried: string; billed: string; connects: string }>(
      fixture.server,
      `select carried_bytes::text as carried, billed_bytes::text as billed, connects::text as connects
         from source_usage_daily where source_id = '${source.id}'`,
    );
    const [usage] = await queryRows<{ used: string }>(
      fixture.server,
      `select traffic_used_bytes::text as used from plans where id = '${plan.planId}'`,
    );
    expect(Number(day?.carried)).toBeGreaterThan(0);
    expect(day?.billed).toBe(day?.carried);
    // Everything this plan carried went through the network: its usage is the source's day.
    expect(day?.carried).toBe(usage?.used);
    expect(day?.connects).toBe('3');

    // The audit log has both changes, and never the account's password.
    const audit = await queryRows<{ action: string; after: unknown }>(
      fixture.server,
      `select action, after from audit_log where target_type = 'source' order by created_at`,
    );
    expect(audit.map((entry) => entry.action)).toEqual(['source.add', 'source.change']);
    expect(JSON.stringify(audit)).not.toContain(network.account.password);
    expect(audit[0]?.after).toMatchObject({ url: `http://fakeuser:***@127.0.0.1:${network.port}` });
  });

  it('prices each flush at the cost in force when it is written: a cost change keeps what was carried before', async () => {
    // The network of the test above, still the pool's only active source.
    const ctx = { db: fixture.server.database.db, config: fixture.server.config };
    const plan = await buyDatacenterPlan(fixture.server);
    const carriedSoFar = async () => {
      const [row] = await queryRows<{ carried: string; cost: string }>(
        fixture.server,
        `select coalesce(sum(d.carried_bytes), 0)::text as carried, coalesce(sum(d.cost_byte_cents), 0)::text as cost
           from source_usage_daily d join supply_sources s on s.id = d.source_id where s.name = 'Oxylabs US'`,
      );
      return { carried: BigInt(row?.carried ?? '0'), cost: BigInt(row?.cost ?? '0') };
    };
    expect((await curlThrough(`${plan.login}__cr.us`, plan.password)).status).toBe(200);
    await fixture.gateway.flush();
    const atFirstCost = await carriedSoFar();
    expect(atFirstCost.carried).toBeGreaterThan(0n);
    // Everything so far went through at $1.20 a GB: bytes × 120 byte-cents, to the byte.
    expect(atFirstCost.cost).toBe(atFirstCost.carried * 120n);

    await changeSource(ctx, {
      source: 'Oxylabs US',
      settings: { costPerGb: '0.80' },
      reason: 'renegotiated',
      actor: CLI_ACTOR,
    });
    expect((await curlThrough(`${plan.login}__cr.us`, plan.password)).status).toBe(200);
    await fixture.gateway.flush();
    const after = await carriedSoFar();
    expect(after.carried).toBeGreaterThan(atFirstCost.carried);
    // The bytes before the change keep $1.20; only the ones flushed after it are at $0.80.
    expect(after.cost).toBe(atFirstCost.carried * 120n + (after.carried - atFirstCost.carried) * 80n);
  });

  it("routes by the network's imported catalog once its version moves, and reads it again only then", async () => {
    const ctx = { db: fixture.server.database.db, config: fixture.server.config };
    const plan = await buyDatacenterPlan(fixture.server);
    const { store } = fixture.gateway;
    const network = () => store.listSources('datacenter').find((source) => source.name === 'Oxylabs US');
    // No catalog yet: the network is tried for Dallas, and its exit there answers.
    expect((await curlThrough(`${plan.login}__cr.us;city.dallas`, plan.password)).body).toBe(
      'from 127.0.0.51',
    );
    await importCatalog(ctx, {
      source: 'Oxylabs US',
      content: 'country,city\nUS,Austin',
      format: 'csv',
      replace: false,
      reason: 'vendor list',
      actor: CLI_ACTOR,
    });
    await store.refresh();
    // The catalog lists Austin only: Dallas has no source left (own exits are off), Austin goes through.
    // (A forward request, not a tunnel: curl prints the refusal's body then.)
    const { stdout: dallas } = await run('curl', [
      '-s',
      '-w',
      '\n%{http_code}',
      '-x',
      `http://${plan.login}__cr.us;city.dallas:${plan.password}@127.0.0.1:${fixture.gateway.httpPort}`,
      `${fixture.originUrl}/`,
    ]);
    expect(dallas).toMatch(/NO_RAY[\s\S]*\n400$/);
    expect(await curlThrough(`${plan.login}__cr.us;city.austin`, plan.password)).toMatchObject({
      status: 200,
      body: 'from 127.0.0.52',
    });
    // Refreshes that find the version where it was keep the source and its catalog as they are; a new
    // place moves the version and the catalog is read again; an exit at a known place moves nothing.
    const loaded = network();
    const sourceId = loaded?.id ?? '';
    await store.refresh();
    expect(network()).toBe(loaded);
    expect((await learnCatalogLocation(ctx.db, sourceId, '139.130.4.5'))?.isNewPlace).toBe(true);
    // A catalog read again is read beside the refresh: a refresh or two later, the source has it.
    await expect
      .poll(async () => {
        await store.refresh();
        return network() !== loaded;
      })
      .toBe(true);
    const relearned = network();
    expect(relearned?.kind === 'network' && [...(relearned.catalog?.keys() ?? [])].sort()).toEqual([
      'AU',
      'US',
    ]);
    expect((await learnCatalogLocation(ctx.db, sourceId, '139.130.4.5'))?.isNewPlace).toBe(false);
    await store.refresh();
    expect(network()).toBe(relearned);
  });

  it('refuses a network without a grammar it knows, a template that does not parse, and a second own-exits source', async () => {
    const ctx = { db: fixture.server.database.db, config: fixture.server.config };
    const attempt = (input: Record<string, unknown>) =>
      addSource(ctx, { input: { name: 'X', pool: 'residential', ...input }, actor: CLI_ACTOR }).then(
        () => 'added',
        (error: Error) => error.message,
      );
    expect(await attempt({ grammar: 'luminati', url: network.url })).toBe(
      'grammar must be one of brightdata, oxylabs, decodo, iproyal, webshare, soax, template',
    );
    expect(
      await attempt({ grammar: 'template', template: '{user}-country-{cuntry}', url: network.url }),
    ).toMatch(/^template: unknown placeholder \{cuntry\}/);
    expect(await attempt({ grammar: 'oxylabs', url: 'http://127.0.0.1:7777' })).toBe(
      "url must carry the network account's USER:PASS",
    );
    expect(await attempt({ grammar: 'oxylabs', url: network.url, costPerGb: '1.234' })).toBe(
      'cost-per-gb must be an amount in dollars, such as 1.20',
    );
    expect(await attempt({ kind: 'exits' })).toBe(
      "The residential pool's own exits are already the source Own residential exits",
    );
  });
});
