import { execFile } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { promisify } from 'node:util';
import type { AuditResponse } from '@bytegate/contracts/admin';
import { createExits, getExitProbe } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { freePort } from '@bytegate/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFleetHealth } from '../services/fleet-health/get-fleet-health.ts';
import { PROBE_FAILURES_TO_TAKE_OUT } from '../services/inventory/exit-health-rules.ts';
import {
  buyDatacenterPlan,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../testing/gateway-fixture.ts';
import { createUserWithRole } from '../testing/staff.ts';
import { queryRows } from '../testing/test-server.ts';
import { probeExits } from './probe-exits.ts';

const run = promisify(execFile);

/** A bare HTTP CONNECT proxy (no credentials): the upstream exit's provider once it is back. */
function startConnectProxy(port: number): Promise<Server> {
  const proxy = createServer((client: Socket) => {
    client.once('data', (head: Buffer) => {
      const [, host = '', targetPort = '0'] = /^CONNECT ([^:\s]+):(\d+) /.exec(head.toString('latin1')) ?? [];
      const target = connect(Number(targetPort), host, () => {
        client.write('HTTP/1.1 200 Connection established\r\n\r\n');
        client.pipe(target).pipe(client);
      });
      target.on('error', () => client.destroy());
    });
    client.on('error', () => client.destroy());
  });
  return new Promise((resolve) => proxy.listen(port, '127.0.0.1', () => resolve(proxy)));
}

describe.each(testDatabaseKinds())('the exit probe job on %s', (kind) => {
  let fixture: GatewayFixture;
  let probeTarget: HttpServer;
  let probeUrl: string;
  let upstreamPort: number;
  let deadExitId: string;
  let plan: Awaited<ReturnType<typeof buyDatacenterPlan>>;
  let upstreamProxy: Server | undefined;

  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
    // The probe's own target, apart from the customer's origin, so it can go down on its own.
    probeTarget = createHttpServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => probeTarget.listen(0, '127.0.0.1', resolve));
    probeUrl = `http://127.0.0.1:${(probeTarget.address() as AddressInfo).port}/health`;
    fixture.server.config.exitProbe = { url: probeUrl, intervalSeconds: 1 };
    // An upstream exit whose proxy is not there: nothing listens on its port (yet).
    upstreamPort = await freePort();
    const [dead] = await createExits(fixture.server.database.db, {
      exits: [
        {
          name: 'FR dead upstream',
          kind: 'upstream',
          poolType: 'datacenter',
          country: 'FR',
          upstreamUrl: `http://127.0.0.1:${upstreamPort}`,
        },
      ],
    });
    deadExitId = dead?.id ?? '';
    plan = await buyDatacenterPlan(fixture.server);
  });
  afterAll(async () => {
    await new Promise((resolve) => upstreamProxy?.close(resolve) ?? resolve(undefined));
    await new Promise((resolve) => probeTarget?.close(resolve));
    await fixture?.close();
  });

  const ctx = () => ({ db: fixture.server.database.db, config: fixture.server.config });
  const isPicked = () => fixture.gateway.store.exitIndex('datacenter').get(deadExitId) !== undefined;
  /** curl through the gateway to the origin from an exit in `country`: the status and the body. */
  async function curlFrom(country: string) {
    const { stdout } = await run('curl', [
      '-s',
      '-w',
      '\n%{http_code}',
      '-x',
      `http://${plan.login}__cr.${country}:${plan.password}@127.0.0.1:${fixture.gateway.httpPort}`,
      `${fixture.originUrl}/`,
    ]).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const cut = stdout.lastIndexOf('\n');
    return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
  }

  it("counts the failing exit's real traffic, flushed to its hourly health", async () => {
    await within(2000, async () => (await curlFrom('us')).status === 200);
    // The only French exit fails twice (tried, then tried again: there is no other), then 502.
    expect((await curlFrom('fr')).status).toBe(502);
    await fixture.gateway.flush();
    const rows = await queryRows<{ exit_id: string; connects: number; failures: number; last_error: string }>(
      fixture.server,
      `select exit_id, connects, failures, last_error from exit_traffic_health where exit_id = '${deadExitId}'`,
    );
    expect(rows).toEqual([
      { exit_id: deadExitId, connects: 0, failures: 2, last_error: expect.stringMatching(/ECONNREFUSED/) },
    ]);
  });

  it(`takes the failing exit out after ${PROBE_FAILURES_TO_TAKE_OUT} probes in a row, and the gateway stops using it`, async () => {
    for (let round = 1; round < PROBE_FAILURES_TO_TAKE_OUT; round++) {
      const probed = await probeExits(ctx());
      expect(probed).toMatchObject({ probed: 3, failed: 1, isTargetDown: false, takenOut: [] });
    }
    const probe = await getExitProbe(fixture.server.database.db, { exitId: deadExitId });
    expect(probe).toMatchObject({ isOk: false, consecutiveFailures: PROBE_FAILURES_TO_TAKE_OUT - 1 });
    expect(probe?.error).toMatch(/ECONNREFUSED/);
    expect(isPicked()).toBe(true);

    const third = await probeExits(ctx());
    expect(third.takenOut).toEqual([deadExitId]);
    // The working exits were probed through their own addresses and stay in.
    const others = await queryRows<{ is_ok: boolean; connect_ms: number }>(
      fixture.server,
      `select is_ok, connect_ms from exit_probes where exit_id <> '${deadExitId}'`,
    );
    expect(others).toEqual([
      { is_ok: true, connect_ms: expect.any(Number) },
      { is_ok: true, connect_ms: expect.any(Number) },
    ]);
    // The trigger moved the inventory version: the gateway reloads within a second or two.
    await within(3000, async () => !isPicked());
    expect(await curlFrom('fr')).toMatchObject({ status: 400 });

    const [exit] = await queryRows<{ out_of_rotation_reason: string; is_active: boolean }>(
      fixture.server,
      `select out_of_rotation_reason, is_active from exits where id = '${deadExitId}'`,
    );
    expect(exit?.is_active).toBe(true);
    expect(exit?.out_of_rotation_reason).toMatch(/^3 probes in a row failed: .*ECONNREFUSED/);
    const support = await createUserWithRole(fixture.server, 'support');
    const audit = await fixture.server.request<AuditResponse>(
      'GET',
      `/api/admin/audit?targetId=${deadExitId}`,
      {
        token: support.token,
      },
    );
    expect(audit.body.entries[0]).toMatchObject({ action: 'exit.rotation.out', actorEmail: 'system' });

    // Another failed round changes nothing more.
    expect((await probeExits(ctx())).takenOut).toEqual([]);
  });

  it('puts the exit back after a probe through it succeeds, and the gateway routes through it again', async () => {
    upstreamProxy = await startConnectProxy(upstreamPort);
    const round = await probeExits(ctx());
    expect(round).toMatchObject({ failed: 0, putBack: [deadExitId] });
    await within(3000, async () => isPicked());
    expect(await curlFrom('fr')).toEqual({ status: 200, body: 'from 127.0.0.1' });
    const probe = await getExitProbe(fixture.server.database.db, { exitId: deadExitId });
    expect(probe).toMatchObject({ isOk: true, consecutiveFailures: 0, error: null });
    expect(probe?.lastOkAt).not.toBeNull();
  });

  it('counts nothing against the exits while the target fails through every one of them', async () => {
    await new Promise((resolve) => probeTarget.close(resolve));
    const round = await probeExits(ctx());
    expect(round).toMatchObject({ probed: 3, failed: 3, isTargetDown: true, takenOut: [] });
    const rows = await queryRows<{ consecutive_failures: number; is_ok: boolean }>(
      fixture.server,
      'select consecutive_failures, is_ok from exit_probes',
    );
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => !row.is_ok && row.consecutive_failures === 0)).toBe(true);
    expect(isPicked()).toBe(true);
  });

  it("reports the gateway's open connections in the health view, named by plan", async () => {
    const held = connect(fixture.gateway.httpPort, '127.0.0.1');
    await new Promise((resolve) => held.once('connect', resolve));
    const auth = Buffer.from(`${plan.login}:${plan.password}`).toString('base64');
    held.write(
      `CONNECT 127.0.0.1:${new URL(fixture.originUrl).port} HTTP/1.1\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
    );
    await new Promise((resolve) => held.once('data', resolve));
    const view = await getFleetHealth({ ...ctx(), gatewayConnections: () => fixture.gateway.connections() });
    expect(view.connections).toEqual({
      open: 1,
      authenticating: 0,
      topPlans: [
        expect.objectContaining({
          planId: plan.planId,
          login: plan.login,
          email: plan.email,
          connections: 1,
        }),
      ],
    });
    expect(view.exits).toEqual({ total: 3, active: 3, outOfRotation: 0, disabled: 0 });
    held.destroy();
    expect((await getFleetHealth(ctx())).connections).toBeNull();
  });
});
