import { connect, type Socket } from 'node:net';
import type {
  StatsCredential,
  StatsErrorsResponse,
  StatsHostsResponse,
  StatsLive,
  StatsSeriesResponse,
} from '@bytegate/contracts/stats';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxyUserForPlan } from '../services/proxy-users/proxy-users.ts';
import {
  buyDatacenterPlan,
  fetchThroughGateway,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../testing/gateway-fixture.ts';
import { createUserViaApi, queryRows } from '../testing/test-server.ts';

// Statistics (issue 19) from real traffic through the gateway over the database: what the flush stores
// by credential (all, the plan's own login, a proxy user), the success rate that leaves our own policy's
// refusals apart, errors by code with what to do, target hosts, the CSV exports, the range rules, and
// the live view while a tunnel is open.

describe.each(testDatabaseKinds())('statistics from gateway traffic, on %s', (kind) => {
  let fixture: GatewayFixture;
  let customer: Awaited<ReturnType<typeof buyDatacenterPlan>>;
  let proxyUser: { id: string; login: string; password: string };
  const from = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
  const to = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  const range = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
    customer = await buyDatacenterPlan(fixture.server);
    const [owner] = await queryRows<{ user_id: string }>(
      fixture.server,
      `select user_id from plans where id = '${customer.planId}'`,
    );
    proxyUser = await createProxyUserForPlan(
      { db: fixture.server.database.db, config: fixture.server.config },
      { userId: owner?.user_id as string, planId: customer.planId, body: { label: 'scraper EU' } },
    );
    const own = `${customer.login}:${customer.password}`;
    const user = `${proxyUser.login}:${proxyUser.password}`;
    // Both credentials work at the gateway within its refresh.
    await within(3000, async () =>
      (await fetchThroughGateway(fixture, own, '/?bytes=1')).status.includes('200'),
    );
    await within(3000, async () =>
      (await fetchThroughGateway(fixture, user, '/?bytes=1')).status.includes('200'),
    );
    // The plan's own login: a download, a port our policy keeps closed, a host that does not resolve.
    expect((await fetchThroughGateway(fixture, own, '/?bytes=100000')).body.length).toBe(100_000);
    expect((await fetchViaGateway(own, 'http://127.0.0.1:25/')).status).toContain('403 PORT_BLOCKED');
    const port = new URL(fixture.originUrl).port;
    expect((await fetchViaGateway(own, `http://no-such-host.invalid:${port}/`)).status).toContain(
      '502 NO_HOST_CONNECTION',
    );
    // The proxy user: a download of its own.
    expect((await fetchThroughGateway(fixture, user, '/?bytes=50000')).body.length).toBe(50_000);
    await fixture.gateway.flush();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** A forward request through the gateway to any absolute URL. */
  function fetchViaGateway(credentials: string, url: string): Promise<{ status: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(fixture.gateway.httpPort, '127.0.0.1', () => {
        socket.write(
          `GET ${url} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nConnection: close\r\nProxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n\r\n`,
        );
      });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () =>
        resolve({ status: Buffer.concat(chunks).toString('latin1').split('\r\n')[0] ?? '' }),
      );
    });
  }

  const get = <T>(path: string, token = customer.token) => fixture.server.request<T>('GET', path, { token });

  it('lists the plan’s own login and its proxy users as credentials', async () => {
    const answer = await get<{ credentials: StatsCredential[] }>('/api/stats/credentials');
    expect(answer.body.credentials).toEqual([
      {
        id: `plan:${customer.planId}`,
        label: 'Datacenter plan',
        login: customer.login,
        pool: 'datacenter',
        kind: 'plan',
      },
      {
        id: `user:${proxyUser.id}`,
        label: 'scraper EU',
        login: proxyUser.login,
        pool: 'datacenter',
        kind: 'proxy_user',
      },
    ]);
  });

  it('counts every credential together, with policy refusals apart from failures', async () => {
    const answer = await get<StatsSeriesResponse>(`/api/stats/series?${range}&resolution=hour`);
    expect(answer.status).toBe(200);
    const { totals } = answer.body;
    // 2 probes of 1 byte, the 100,000 and 50,000 byte downloads, a refusal and a failure.
    expect(totals).toMatchObject({ requests: 6, succeeded: 4, failed: 1, refusedByPolicy: 1 });
    // 4 of the 5 requests our policy let through met their target.
    expect(totals.successRate).toBe(80);
    expect(totals.bytes).toBeGreaterThan(150_000);
    expect(totals.billedBytes).toBe(totals.bytes);
    expect(answer.body.points).toHaveLength(4);
    const [stored] = await queryRows<{ used: number }>(
      fixture.server,
      `select traffic_used_bytes::int8 as used from plans where id = '${customer.planId}'`,
    );
    // What Statistics show carried is what the plan was billed, to the byte.
    expect(totals.billedBytes).toBe(Number(stored?.used));
    const daily = await get<StatsSeriesResponse>(`/api/stats/series?${range}&resolution=day`);
    expect(daily.body.totals).toEqual(totals);
  });

  it('narrows to one credential: the proxy user, or the plan’s own login', async () => {
    const user = (
      await get<StatsSeriesResponse>(`/api/stats/series?${range}&credential=user:${proxyUser.id}`)
    ).body;
    const own = (
      await get<StatsSeriesResponse>(`/api/stats/series?${range}&credential=plan:${customer.planId}`)
    ).body;
    const all = (await get<StatsSeriesResponse>(`/api/stats/series?${range}`)).body;
    expect(user.totals).toMatchObject({
      requests: 2,
      succeeded: 2,
      failed: 0,
      refusedByPolicy: 0,
      successRate: 100,
    });
    expect(own.totals).toMatchObject({ requests: 4, succeeded: 2, failed: 1, refusedByPolicy: 1 });
    expect(user.totals.bytes + own.totals.bytes).toBe(all.totals.bytes);
    expect(user.totals.bytes).toBeGreaterThan(50_000);
    expect((await get(`/api/stats/series?${range}&pool=residential`)).body).toMatchObject({
      totals: { requests: 0, successRate: null },
    });
  });

  it('explains each error code, marks our policy’s refusals, and counts them per point', async () => {
    const answer = await get<StatsErrorsResponse>(`/api/stats/errors?${range}`);
    expect(answer.body.errors).toEqual([
      {
        code: 'NO_HOST_CONNECTION',
        count: 1,
        isPolicyRefusal: false,
        meaning: 'The target did not answer through two different exits.',
        action: 'Check the target address and port; if it is up, retry later or from another country.',
      },
      expect.objectContaining({ code: 'PORT_BLOCKED', count: 1, isPolicyRefusal: true }),
    ]);
    const counted = answer.body.points.flatMap((point) => Object.values(point.counts));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('lists target hosts by bytes, with requests and errors, searchable and by credential', async () => {
    const hosts = (await get<StatsHostsResponse>(`/api/stats/hosts?${range}`)).body.hosts;
    expect(hosts.map((host) => host.host)).toEqual(['127.0.0.1', 'no-such-host.invalid']);
    expect(hosts[0]).toMatchObject({ requests: 5, errors: 1 });
    // The request's head, which the client sent, is billed; the gateway's own refusal is not.
    expect(hosts[1]).toMatchObject({ requests: 1, errors: 1 });
    expect(hosts[1]?.bytes).toBeGreaterThan(0);
    expect(hosts[1]?.bytes).toBeLessThan(300);
    const found = await get<StatsHostsResponse>(`/api/stats/hosts?${range}&search=invalid`);
    expect(found.body.hosts.map((host) => host.host)).toEqual(['no-such-host.invalid']);
    const user = await get<StatsHostsResponse>(`/api/stats/hosts?${range}&credential=user:${proxyUser.id}`);
    expect(user.body.hosts).toEqual([expect.objectContaining({ host: '127.0.0.1', requests: 2, errors: 0 })]);
  });

  it('exports each view as CSV: one header row, ISO dates, bytes as integers', async () => {
    const response = await fetch(`${fixture.server.url}/api/stats/series?${range}&format=csv`, {
      headers: { authorization: `Bearer ${customer.token}` },
    });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="bytegate-traffic-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('start,bytes,billed_bytes,requests,succeeded,failed,refused_by_policy');
    expect(lines).toHaveLength(5);
    const json = (await get<StatsSeriesResponse>(`/api/stats/series?${range}`)).body;
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.map((row) => row[0])).toEqual(json.points.map((point) => point.at));
    expect(rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(json.totals.bytes);
    const hosts = await fetch(`${fixture.server.url}/api/stats/hosts?${range}&format=csv`, {
      headers: { authorization: `Bearer ${customer.token}` },
    });
    expect((await hosts.text()).split('\r\n')[0]).toBe('host,bytes,requests,errors');
    const errors = await fetch(`${fixture.server.url}/api/stats/errors?${range}&format=csv`, {
      headers: { authorization: `Bearer ${customer.token}` },
    });
    const errorLines = (await errors.text()).trimEnd().split('\r\n');
    expect(errorLines[0]).toBe('code,count,refused_by_policy,meaning,what_to_do');
    expect(errorLines).toContain(
      'NO_HOST_CONNECTION,1,false,The target did not answer through two different exits.,"Check the target address and port; if it is up, retry later or from another country."',
    );
  });

  it('refuses a bad range, an hourly view over 90 days, and another customer’s credential', async () => {
    const cases: Array<[string, number, string]> = [
      [
        `from=${encodeURIComponent(to)}&to=${encodeURIComponent(from)}`,
        400,
        'Give the period as from and to dates (ISO 8601), from before to.',
      ],
      ['from=yesterday&to=today', 400, 'Give the period as from and to dates (ISO 8601), from before to.'],
      [
        `from=2026-01-01T00:00:00Z&to=2026-05-01T00:00:00Z&resolution=hour`,
        400,
        'An hourly view spans at most 90 days: choose daily resolution.',
      ],
      [
        `from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z&resolution=day`,
        400,
        'Usage is kept 13 months (hourly: 90 days): choose a later start.',
      ],
      [
        `${range}&credential=user:00000000-0000-4000-8000-000000000000`,
        404,
        'No such credential on your plans.',
      ],
    ];
    for (const [query, status, error] of cases) {
      const answer = await get<{ error: string }>(`/api/stats/series?${query}`);
      expect(answer.status, query).toBe(status);
      expect(answer.body.error, query).toBe(error);
    }
    const stranger = await createUserViaApi(fixture.server);
    const theirs = await get<{ error: string }>(
      `/api/stats/series?${range}&credential=plan:${customer.planId}`,
      stranger.token,
    );
    expect(theirs.status).toBe(404);
    expect(
      (await get<StatsSeriesResponse>(`/api/stats/series?${range}`, stranger.token)).body.totals.requests,
    ).toBe(0);
    expect((await fixture.server.request('GET', `/api/stats/series?${range}`)).status).toBe(401);
  });

  it('answers the same views through the public API with a read key, in its snake_case, CSV alike', async () => {
    const key = await fixture.server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: customer.token,
      body: { name: 'stats export', scopes: ['read'], password: customer.accountPassword },
    });
    expect(key.status).toBe(201);
    const v1 = <T>(path: string) => get<T>(`/api/v1/stats/${path}`, key.body.secret);
    const dashboard = (await get<StatsSeriesResponse>(`/api/stats/series?${range}`)).body;
    const series = await v1<{
      totals: Record<string, number | null>;
      points: Array<Record<string, number | string>>;
    }>(`series?${range}`);
    expect(series.status).toBe(200);
    expect(series.body.totals).toEqual({
      bytes: dashboard.totals.bytes,
      billed_bytes: dashboard.totals.billedBytes,
      requests: 6,
      succeeded: 4,
      failed: 1,
      refused_by_policy: 1,
      success_rate: 80,
    });
    expect(series.body.points.map((point) => point.start)).toEqual(dashboard.points.map((point) => point.at));
    const user = await v1<{ totals: { requests: number } }>(
      `series?${range}&credential=${encodeURIComponent(`user:${proxyUser.id}`)}`,
    );
    expect(user.body.totals.requests).toBe(2);
    const errors = await v1<{ errors: Array<Record<string, unknown>> }>(`errors?${range}`);
    expect(errors.body.errors).toContainEqual({
      code: 'PORT_BLOCKED',
      count: 1,
      refused_by_policy: true,
      meaning: 'The target port is closed by default.',
      what_to_do: 'Use an open port, or ask support to unblock this one for your account.',
    });
    const hosts = await v1<{ hosts: Array<{ host: string }>; next_cursor: string | null }>(`hosts?${range}`);
    expect(hosts.body.hosts.map((row) => row.host)).toEqual(
      (await get<StatsHostsResponse>(`/api/stats/hosts?${range}`)).body.hosts.map((row) => row.host),
    );
    expect(hosts.body.next_cursor).toBeNull();
    const credentials = await v1<{ credentials: StatsCredential[] }>('credentials');
    expect(credentials.body.credentials.map((row) => row.id)).toEqual([
      `plan:${customer.planId}`,
      `user:${proxyUser.id}`,
    ]);
    // The CSV through the API is the dashboard's download, byte for byte.
    const csvOf = async (path: string, token: string) =>
      (await fetch(`${fixture.server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(await csvOf(`/api/v1/stats/series?${range}&format=csv`, key.body.secret)).toBe(
      await csvOf(`/api/stats/series?${range}&format=csv`, customer.token),
    );
    const live = await v1<{ scope: string; plans: unknown[] }>('live');
    expect(live.body).toMatchObject({ scope: 'local', plans: expect.any(Array) });
    // Another customer's credential is not found; a key without the read scope is refused.
    const stranger = await createUserViaApi(fixture.server);
    const strangerKey = await fixture.server.request<{ secret: string }>(
      'POST',
      '/api/user-settings/api-keys',
      {
        token: stranger.token,
        body: { name: 'theirs', scopes: ['read'], password: stranger.password },
      },
    );
    const theirs = await get<{ code: string }>(
      `/api/v1/stats/series?${range}&credential=${encodeURIComponent(`plan:${customer.planId}`)}`,
      strangerKey.body.secret,
    );
    expect(theirs.status).toBe(404);
    const writeOnly = await fixture.server.request<{ secret: string }>(
      'POST',
      '/api/user-settings/api-keys',
      {
        token: customer.token,
        body: { name: 'buyer', scopes: ['purchase'], password: customer.accountPassword },
      },
    );
    const refused = await get<{ required: string }>(`/api/v1/stats/series?${range}`, writeOnly.body.secret);
    expect(refused.status).toBe(403);
    expect(refused.body.required).toBe('read');
  });

  it('streams the live view: a tunnel open now and its throughput, as Server-Sent Events', async () => {
    const target = new URL(fixture.originUrl).host;
    const tunnel: Socket = await new Promise((resolve, reject) => {
      const socket = connect(fixture.gateway.httpPort, '127.0.0.1', () => {
        socket.write(
          `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${Buffer.from(`${customer.login}:${customer.password}`).toString('base64')}\r\n\r\n`,
        );
      });
      socket.once('data', () => resolve(socket));
      socket.once('error', reject);
    });
    const controller = new AbortController();
    const response = await fetch(`${fixture.server.url}/api/stats/live`, {
      headers: { authorization: `Bearer ${customer.token}` },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const events: StatsLive[] = [];
    // Bytes through the tunnel while the stream runs, so the throughput is not zero.
    tunnel.write(`GET /?bytes=400000 HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    tunnel.on('data', () => undefined);
    // A small request now and then: the origin closes a kept-alive connection idle for 5 s, which on a
    // busy machine can come before the first event that shows the download, and the tunnel must be open.
    const keepOpen = setInterval(() => tunnel.write(`GET / HTTP/1.1\r\nHost: ${target}\r\n\r\n`), 1000);
    const isMoving = (event: StatsLive) =>
      (event.plans[0]?.bytesPerSecond ?? 0) > 0 && event.plans[0]?.openConnections === 1;
    const deadline = Date.now() + 8000;
    while (Date.now() < deadline && !events.some(isMoving)) {
      const { value, done } = await reader.read();
      if (done) {
        break;
      }
      text += Buffer.from(value).toString('utf8');
      for (const block of text.split('\n\n').slice(events.length, -1)) {
        expect(block.startsWith('event: live\ndata: ')).toBe(true);
        events.push(JSON.parse(block.slice('event: live\ndata: '.length)) as StatsLive);
      }
    }
    clearInterval(keepOpen);
    controller.abort();
    tunnel.destroy();
    expect(events[0]).toMatchObject({ scope: 'local' });
    const moving = events.find(isMoving) ?? events.find((event) => (event.plans[0]?.bytesPerSecond ?? 0) > 0);
    expect(moving?.plans).toEqual([
      {
        subUserId: customer.planId,
        pool: 'datacenter',
        openConnections: 1,
        bytesPerSecond: expect.any(Number),
      },
    ]);
    // Another customer sees none of it.
    const stranger = await createUserViaApi(fixture.server);
    const theirs = new AbortController();
    const theirResponse = await fetch(`${fixture.server.url}/api/stats/live`, {
      headers: { authorization: `Bearer ${stranger.token}` },
      signal: theirs.signal,
    });
    const first = await (theirResponse.body as ReadableStream<Uint8Array>).getReader().read();
    theirs.abort();
    expect(Buffer.from(first.value ?? new Uint8Array()).toString('utf8')).toContain('"plans":[]');
  });
});
