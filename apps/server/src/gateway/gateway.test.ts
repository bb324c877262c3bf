import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeUnblocks } from '../services/accounts/unblocks.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { type GatewayFixture, startGatewayFixture, within } from '../testing/gateway-fixture.ts';
import { createUserViaApi, queryRows, type TestServer } from '../testing/test-server.ts';
import type { RunningGateway } from './run-gateway.ts';

const run = promisify(execFile);

describe.each(testDatabaseKinds())('the gateway over the database on %s', (kind) => {
  let fixture: GatewayFixture;
  let server: TestServer;
  let originPort: number;
  let gateway: RunningGateway;

  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
    ({ server, gateway } = fixture);
    originPort = Number(new URL(fixture.originUrl).port);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  async function curlThrough(login: string, password: string, path = '/') {
    const { stdout } = await run('curl', [
      '-s',
      '-w',
      '\n%{http_code} %{size_request} %{size_header} %{size_download}',
      '-x',
      `http://${login}:${password}@127.0.0.1:${gateway.httpPort}`,
      `http://127.0.0.1:${originPort}${path}`,
    ]);
    const cut = stdout.lastIndexOf('\n');
    const [status, request, header, download] = stdout
      .slice(cut + 1)
      .split(' ')
      .map(Number);
    return { body: stdout.slice(0, cut), status, bytes: (request ?? 0) + (header ?? 0) + (download ?? 0) };
  }

  it('serves a plan bought through the API within 2 s, bills it to the byte, and shows it in usage', async () => {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 20_00, reason: 'test' },
    );
    const bought = await server.request<{ plan: { subUserId: string; login: string; password: string } }>(
      'POST',
      '/api/subuser/create',
      { token: user.token, body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } } },
    );
    const { login, password, subUserId } = bought.body.plan;
    await within(2000, async () => (await curlThrough(login, password)).status === 200);
    await gateway.flush();
    const baseline = (
      await queryRows<{ used: string }>(
        server,
        `select traffic_used_bytes::text as used from plans where id = '${subUserId}'`,
      )
    )[0]?.used;

    const download = await curlThrough(`${login}__cr.de`, password, '/?bytes=100000');
    expect(download.status).toBe(200);
    expect(download.body).toBe('b'.repeat(100000));
    await gateway.flush();
    const after = (
      await queryRows<{ used: string }>(
        server,
        `select traffic_used_bytes::text as used from plans where id = '${subUserId}'`,
      )
    )[0]?.used;
    expect(Number(after) - Number(baseline)).toBe(download.bytes);

    const usage = await server.request<{ total: { traffic: number; requests: number } }>(
      'GET',
      `/api/subuser/usage?subuser_id=${subUserId}&period=day`,
      { token: user.token },
    );
    expect(usage.body.total.traffic).toBe(Number(after));
    expect(usage.body.total.requests).toBeGreaterThanOrEqual(2);

    // Refusals are counted by code, and bytes by target host.
    const refused = await curlThrough(`${login}__cr.jp`, password);
    expect(refused.status).toBe(400);
    await gateway.flush();
    const detail = await server.request<{
      errors_by_code: Array<{ code: string; count: number }>;
      top_hosts: Array<{ host: string; bytes: number }>;
    }>('GET', `/api/subuser/usage?subuser_id=${subUserId}&period=day`, { token: user.token });
    expect(detail.body.errors_by_code).toEqual([{ code: 'NO_RAY', count: 1 }]);
    expect(detail.body.top_hosts).toHaveLength(1);
    expect(detail.body.top_hosts[0]?.host).toBe('127.0.0.1');
    expect(detail.body.top_hosts[0]?.bytes).toBeGreaterThanOrEqual(download.bytes);
  });

  it('routes by settings saved through the API within 2 s, under the login parameters', async () => {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 20_00, reason: 'test' },
    );
    const bought = await server.request<{ plan: { login: string; password: string } }>(
      'POST',
      '/api/subuser/create',
      { token: user.token, body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } } },
    );
    const { login, password } = bought.body.plan;
    await within(2000, async () => (await curlThrough(login, password)).status === 200);
    const save = (body: Record<string, unknown>) =>
      server.request('PUT', '/api/proxy-settings', {
        token: user.token,
        body: { pool_type: 'datacenter', ...body },
      });

    // Excluding both countries leaves no exit: the switch from 200 to NO_RAY shows the save arrived.
    expect((await save({ exclude_countries: ['US', 'DE'] })).status).toBe(200);
    const tookExclude = await within(2000, async () => (await curlThrough(login, password)).status === 400);
    // Back to serving, through Germany only; a login parameter still wins.
    expect((await save({ countries: ['DE'] })).status).toBe(200);
    const tookDe = await within(2000, async () => (await curlThrough(login, password)).status === 200);
    for (let i = 0; i < 6; i++) {
      expect((await curlThrough(login, password)).body).toBe('from 127.0.0.3');
    }
    expect((await curlThrough(`${login}__cr.us`, password)).body).toBe('from 127.0.0.2');
    expect(Math.max(tookExclude, tookDe)).toBeLessThan(2000);
  });

  it('refuses a plan whose traffic ran out, and serves it again within 2 s of buying more', async () => {
    const user = await createUserViaApi(server);
    const ctx = { db: server.database.db, config: server.config };
    await adjustBalance(ctx, { email: user.email, amountCents: 10_00, reason: 'test' });
    const bought = await server.request<{ plan: { subUserId: string; login: string; password: string } }>(
      'POST',
      '/api/subuser/create',
      { token: user.token, body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } } },
    );
    const { login, password, subUserId } = bought.body.plan;
    await within(2000, async () => (await curlThrough(login, password)).status === 200);
    await server.database.db.execute(
      `update plans set traffic_used_bytes = traffic_total_bytes, updated_at = now() where id = '${subUserId}'`,
    );
    await within(2000, async () => (await curlThrough(login, password)).status === 407);
    const { stdout } = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://${login}:${password}@127.0.0.1:${gateway.httpPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(stdout.split('\r\n')[0]).toBe('HTTP/1.1 407 TRAFFIC_EXHAUSTED');

    await server.request('POST', '/api/subuser/create', {
      token: user.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
    const waited = await within(2000, async () => (await curlThrough(login, password)).status === 200);
    expect(waited).toBeLessThanOrEqual(2000);
  });

  it('opens a support-unblocked port to that customer within 2 s, and to nobody else', async () => {
    const closedPort = new Promise<{ server: Server; port: number }>((resolve) => {
      const other = createServer((_request, response) => response.end('behind a closed port'));
      other.listen(0, '127.0.0.1', () =>
        resolve({ server: other, port: (other.address() as AddressInfo).port }),
      );
    });
    const { server: other, port } = await closedPort;
    try {
      const buyPlan = async () => {
        const user = await createUserViaApi(server);
        await adjustBalance(
          { db: server.database.db, config: server.config },
          { email: user.email, amountCents: 10_00, reason: 'test' },
        );
        const bought = await server.request<{ plan: { login: string; password: string } }>(
          'POST',
          '/api/subuser/create',
          { token: user.token, body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } } },
        );
        return { email: user.email, ...bought.body.plan };
      };
      const unblocked = await buyPlan();
      const stranger = await buyPlan();
      const statusVia = async (plan: { login: string; password: string }) => {
        const { stdout } = await run('curl', [
          '-s',
          '-i',
          '-x',
          `http://${plan.login}:${plan.password}@127.0.0.1:${gateway.httpPort}`,
          `http://127.0.0.1:${port}/`,
        ]);
        return stdout.split('\r\n')[0];
      };
      await within(2000, async () => (await statusVia(unblocked)) === 'HTTP/1.1 403 PORT_BLOCKED');

      const result = await changeUnblocks(server.database.db, {
        email: unblocked.email,
        ports: [port],
        hosts: [],
        remove: false,
      });
      expect(result.ports).toEqual([port]);
      await within(2000, async () => (await statusVia(unblocked)) === 'HTTP/1.1 200 OK');
      expect(await statusVia(stranger)).toBe('HTTP/1.1 403 PORT_BLOCKED');

      await changeUnblocks(server.database.db, {
        email: unblocked.email,
        ports: [port],
        hosts: [],
        remove: true,
      });
      await within(2000, async () => (await statusVia(unblocked)) === 'HTTP/1.1 403 PORT_BLOCKED');
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
