import { execFile } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { getSourceByName, type SourceProbeRow } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { PROBE_FAILURES_TO_HOLD_DOWN } from '@bytegate/gateway';
import { type FakeNetwork, startFakeNetwork } from '@bytegate/gateway/testing/fake-networks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { addSource, changeSource } from '../services/supply/sources.ts';
import { buyDatacenterPlan, type GatewayFixture, startGatewayFixture } from '../testing/gateway-fixture.ts';
import { queryRows } from '../testing/test-server.ts';
import { probeSources } from './probe-sources.ts';

const run = promisify(execFile);

// The source probe job against fake vendor networks (real proxies on loopback speaking Oxylabs' and
// Bright Data's grammars) with a local origin as EXIT_PROBE_URL that answers, as ipify does, the address
// it was reached from: each network's probe is recorded on the source with its exit IP, the vendors'
// refusals are read by the grammar and raise alarms in our words, and the running gateway routes by it.
describe.each(testDatabaseKinds())('the source probe job on %s', (kind) => {
  let fixture: GatewayFixture;
  let probeTarget: HttpServer;
  let networks: Record<'ok' | 'flaky' | 'refusing' | 'exhausted' | 'empty', FakeNetwork>;
  let plan: Awaited<ReturnType<typeof buyDatacenterPlan>>;
  /** The address the probe target says it saw, as an echo service on the internet would (a public one). */
  let reportedIp: string | undefined;
  let probePort = 0;

  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
    probeTarget = createHttpServer((request, response) => {
      // Chunked, as a streaming server answers (no content-length): the probe reads the chunks.
      response.setHeader('content-type', 'application/json');
      response.write(`{"ip": "${reportedIp ?? request.socket.remoteAddress}",`);
      response.end(' "country": "US"}');
    });
    await new Promise<void>((resolve) => probeTarget.listen(0, '127.0.0.1', resolve));
    const { port } = probeTarget.address() as AddressInfo;
    probePort = port;
    fixture.server.config.exitProbe = { url: `http://127.0.0.1:${port}/ip`, intervalSeconds: 1 };
    const us = (address: string) => [{ address, country: 'US', city: 'dallas' }];
    const [ok, flaky, refusing, exhausted, empty] = await Promise.all([
      startFakeNetwork({ grammar: 'oxylabs', exits: us('127.0.0.71') }),
      startFakeNetwork({ grammar: 'oxylabs', exits: us('127.0.0.72') }),
      startFakeNetwork({ grammar: 'oxylabs', exits: us('127.0.0.73') }),
      startFakeNetwork({ grammar: 'oxylabs', exits: us('127.0.0.74') }),
      startFakeNetwork({ grammar: 'brightdata', exits: [] }),
    ]);
    networks = { ok, flaky, refusing, exhausted, empty } as typeof networks;
    exhausted.exhausted = true;
    const ctx = { db: fixture.server.database.db, config: fixture.server.config };
    const add = (name: string, input: Record<string, unknown>) =>
      addSource(ctx, {
        input: { name, costPerGb: '1.00', ...input },
        reason: 'probe test',
        actor: CLI_ACTOR,
      });
    // Two networks carry the datacenter plan's traffic (our own exits switched off)...
    await add('OK', { pool: 'datacenter', grammar: 'oxylabs', url: ok.url });
    await add('Flaky', { pool: 'datacenter', grammar: 'oxylabs', url: flaky.url });
    await changeSource(ctx, {
      source: 'Own datacenter exits',
      settings: { state: 'off' },
      reason: 'networks only',
      actor: CLI_ACTOR,
    });
    // ...and three refuse, in the residential pool; one more is off, and is never probed.
    await add('Refusing', {
      pool: 'residential',
      grammar: 'oxylabs',
      url: refusing.url.replace('fakepass1', 'wrongpass'),
    });
    await add('Exhausted', { pool: 'residential', grammar: 'oxylabs', url: exhausted.url });
    await add('Empty', { pool: 'residential', grammar: 'brightdata', url: empty.url });
    await add('Switched off', { pool: 'mobile', grammar: 'oxylabs', url: ok.url, state: 'off' });
    plan = await buyDatacenterPlan(fixture.server);
  });
  afterAll(async () => {
    await new Promise((resolve) => probeTarget?.close(resolve));
    await Promise.all(Object.values(networks ?? {}).map((network) => network.close()));
    await fixture?.close();
  });

  const ctx = () => ({ db: fixture.server.database.db, config: fixture.server.config });
  async function probeOf(name: string): Promise<SourceProbeRow & { alarm: string | null }> {
    const source = await getSourceByName(fixture.server.database.db, { name });
    const [row] = await queryRows<Record<string, unknown>>(
      fixture.server,
      `select * from source_probes where source_id = '${source?.id}'`,
    );
    return {
      sourceId: String(row?.source_id),
      checkedAt: row?.checked_at as Date,
      isOk: row?.is_ok as boolean,
      connectMs: row?.connect_ms as number | null,
      refusal: row?.refusal as string | null,
      error: row?.error as string | null,
      lastProbeExitIp: row?.last_probe_exit_ip as string | null,
      consecutiveFailures: row?.consecutive_failures as number,
      failingSince: row?.failing_since as Date | null,
      lastOkAt: row?.last_ok_at as Date | null,
      alarm: source?.alarm ?? null,
    };
  }
  /** The networks the customer's `cr.us` requests were dialled through, by name, over `count` requests. */
  async function dialsOver(count: number): Promise<{ ok: number; flaky: number }> {
    const before = { ok: networks.ok.seen.length, flaky: networks.flaky.seen.length };
    for (let i = 0; i < count; i++) {
      const { stdout } = await run('curl', [
        '-s',
        '-x',
        `http://${plan.login}__cr.us:${plan.password}@127.0.0.1:${fixture.gateway.httpPort}`,
        `${fixture.originUrl}/`,
      ]);
      expect(stdout).toMatch(/^from 127\.0\.0\.7[12]$/);
    }
    return {
      ok: networks.ok.seen.length - before.ok,
      flaky: networks.flaky.seen.length - before.flaky,
    };
  }

  it('does nothing without EXIT_PROBE_URL', async () => {
    const round = await probeSources({ ...ctx(), config: { ...fixture.server.config, exitProbe: null } });
    expect(round).toEqual({ probed: 0, failed: 0, isTargetDown: false, alarmed: [] });
  });

  it('probes every switched-on network through its vendor, with no targeting, and keeps the exit IP', async () => {
    networks.flaky.failing = true;
    const round = await probeSources(ctx());
    expect(round).toMatchObject({ probed: 5, failed: 4, isTargetDown: false });
    // The account's own username, spelled with no targeting, and the address the target saw.
    expect(networks.ok.seen.map((seen) => [seen.username, seen.answer])).toEqual([
      ['customer-fakeuser', 'open'],
    ]);
    expect(await probeOf('OK')).toMatchObject({
      isOk: true,
      connectMs: expect.any(Number),
      refusal: null,
      error: null,
      lastProbeExitIp: '127.0.0.71',
      consecutiveFailures: 0,
      failingSince: null,
      alarm: null,
    });
    expect((await probeOf('OK')).lastOkAt).not.toBeNull();
    const { rows } = (await fixture.server.database.db.execute(
      `select count(*)::int as probed from source_probes`,
    )) as unknown as { rows: Array<{ probed: number }> };
    expect(rows[0]?.probed).toBe(5);
  });

  it("reads each vendor's refusal with its grammar and raises alarms in our words, never the vendor's", async () => {
    const refusing = await probeOf('Refusing');
    expect(refusing).toMatchObject({ isOk: false, refusal: 'auth', consecutiveFailures: 1 });
    expect(refusing.error).toBe('the network refused our account credentials (answered 407)');
    expect(refusing.alarm).toBe('the network refused our account credentials (a probe: answered 407)');
    // Oxylabs says "traffic limit reached" in a 407 too: its grammar tells it from a refused password.
    const exhausted = await probeOf('Exhausted');
    expect(exhausted).toMatchObject({ refusal: 'quota', consecutiveFailures: 1 });
    expect(exhausted.alarm).toBe(
      "the network says our account's traffic or credit is used up (a probe: answered 407)",
    );
    // No exit (Bright Data's "no peers") and a vendor's failure: recorded, no alarm for staff.
    const empty = await probeOf('Empty');
    expect(empty).toMatchObject({ refusal: 'no-exit', alarm: null, lastProbeExitIp: null });
    expect(empty.error).toBe('the network had no exit for the probe (answered 502)');
    expect(await probeOf('Flaky')).toMatchObject({ refusal: 'failed', alarm: null, consecutiveFailures: 1 });
    for (const probe of [refusing, exhausted, empty]) {
      expect(probe.error?.toLowerCase()).not.toMatch(/traffic limit|access denied|no peers|oxylabs|bright/);
    }
  });

  it(`sends no customer connection to a network whose last ${PROBE_FAILURES_TO_HOLD_DOWN} probes failed, until real traffic or a probe works`, async () => {
    networks.flaky.failing = true;
    await probeSources(ctx());
    await fixture.gateway.store.refresh();
    const flaky = fixture.gateway.store.listSources('datacenter').find((source) => source.name === 'Flaky');
    expect(flaky?.probe).toEqual({ failuresInRow: 2, failingSinceMs: expect.any(Number) });
    // Held down: every customer connection goes to the other network first (and it answers), though
    // the flaky one would answer again by now (without the hold it is first half the time).
    networks.flaky.failing = false;
    expect(await dialsOver(12)).toEqual({ ok: 12, flaky: 0 });

    // It is still tried last: when the other network fails, a connection opens through it, and that
    // real connection lifts the hold.
    networks.ok.failing = true;
    expect(await dialsOver(1)).toEqual({ ok: 1, flaky: 1 });
    networks.ok.failing = false;
    expect((await dialsOver(16)).flaky).toBeGreaterThan(0);

    // A probe through it that works ends the run of failures.
    expect((await probeSources(ctx())).failed).toBe(3);
    expect(await probeOf('Flaky')).toMatchObject({ isOk: true, consecutiveFailures: 0, failingSince: null });
    await fixture.gateway.store.refresh();
    expect(
      fixture.gateway.store.listSources('datacenter').find((source) => source.name === 'Flaky')?.probe,
    ).toEqual({ failuresInRow: 0, failingSinceMs: null });
  });

  it('counts nothing against the networks while the probe target is down through all of them', async () => {
    const sourceCtx = ctx();
    for (const name of ['Refusing', 'Exhausted', 'Empty']) {
      await changeSource(sourceCtx, {
        source: name,
        settings: { state: 'off' },
        reason: 'test',
        actor: CLI_ACTOR,
      });
    }
    await new Promise((resolve) => probeTarget.close(resolve));
    const round = await probeSources(ctx());
    expect(round).toMatchObject({ probed: 2, failed: 2, isTargetDown: true, alarmed: [] });
    for (const name of ['OK', 'Flaky']) {
      const probe = await probeOf(name);
      expect(probe).toMatchObject({
        isOk: false,
        consecutiveFailures: 0,
        lastProbeExitIp: expect.any(String),
      });
      expect(probe.error).toMatch(/closed before the target answered|ECONNREFUSED|could not carry/);
    }
  });

  it("locates each probe's exit IP into the network's catalog as a learned place", async () => {
    // The target is back (the test above stopped it). Loopback exits teach nothing (no country); an echo
    // service reporting a public address does.
    await new Promise<void>((resolve) => probeTarget.listen(probePort, '127.0.0.1', resolve));
    reportedIp = '139.130.4.5';
    try {
      await probeSources(ctx());
    } finally {
      reportedIp = undefined;
    }
    const source = await getSourceByName(fixture.server.database.db, { name: 'OK' });
    const places = await queryRows<{ country: string; city: string | null; origin: string }>(
      fixture.server,
      `select country, city, origin from source_catalog where source_id = '${source?.id}'`,
    );
    expect(places).toEqual([{ country: 'AU', city: 'Melbourne', origin: 'learned' }]);
  });
});
