import { connect } from 'node:net';
import type { StatsErrorsResponse, StatsSeriesResponse } from '@bytegate/contracts/stats';
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
import { queryRows } from '../testing/test-server.ts';

// Refusals of a valid login in the usage report (issue 20): a username the grammar refuses, a
// conflict, a percent-escape that does not decode, no exit for the targeting, a request the gateway
// cannot read. Each came after the password was checked, so each is a request of that plan (and of its
// proxy user) in the errors by code, through the dashboard's and the public API's statistics alike; a
// wrong password counts for nobody.

describe.each(testDatabaseKinds())('refusals of a valid login in the statistics, on %s', (kind) => {
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
      { userId: owner?.user_id as string, planId: customer.planId, body: { label: 'crawler' } },
    );
    const own = (suffix = '') => `${customer.login}${suffix}:${customer.password}`;
    const user = (suffix = '') => `${proxyUser.login}${suffix}:${proxyUser.password}`;
    await within(3000, async () => (await fetchThroughGateway(fixture, own(), '/')).status.includes('200'));
    await within(3000, async () => (await fetchThroughGateway(fixture, user(), '/')).status.includes('200'));
    const refusals: Array<[string, string]> = [
      [own('__cr.us;nocr.de'), '400 PARAM_CONFLICT'],
      [own('__country.us'), '400 UNKNOWN_PARAM'],
      [own('__cr.us%zz'), '400 INVALID_VALUE'],
      // No FR exit among the loopback ones.
      [own('__cr.fr'), '400 NO_RAY'],
      [user('__city.austin'), '400 PARAM_REQUIRES_COUNTRY'],
      // A wrong password: refused before the username is read, and nobody's statistics.
      [`${customer.login}__cr.us;nocr.de:wrong${customer.password}`, '407 NO_USER'],
    ];
    for (const [credentials, status] of refusals) {
      expect((await fetchThroughGateway(fixture, credentials, '/')).status, credentials).toBe(
        `HTTP/1.1 ${status}`,
      );
    }
    // A request the gateway cannot read after a good login: an absolute URL it does not forward.
    const wss = await rawRequest(`GET wss://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n`, own());
    expect(wss).toBe('HTTP/1.1 400 BAD_REQUEST');
    await fixture.gateway.flush();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** A request head of our own through the gateway's HTTP port: the status line of its answer. */
  function rawRequest(head: string, credentials: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(fixture.gateway.httpPort, '127.0.0.1', () =>
        socket.write(
          `${head}Proxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\nConnection: close\r\n\r\n`,
        ),
      );
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1').split('\r\n')[0] ?? ''));
    });
  }

  const get = <T>(path: string, token = customer.token) => fixture.server.request<T>('GET', path, { token });
  const counts = (body: StatsErrorsResponse) =>
    Object.fromEntries(body.errors.map((error) => [error.code, error.count]));

  it('lists every refusal after the password in the errors by code, with what to do', async () => {
    const answer = await get<StatsErrorsResponse>(`/api/stats/errors?${range}`);
    expect(answer.status).toBe(200);
    expect(counts(answer.body)).toEqual({
      PARAM_CONFLICT: 1,
      UNKNOWN_PARAM: 1,
      INVALID_VALUE: 1,
      NO_RAY: 1,
      PARAM_REQUIRES_COUNTRY: 1,
      BAD_REQUEST: 1,
    });
    expect(answer.body.errors.find((error) => error.code === 'PARAM_CONFLICT')).toMatchObject({
      isPolicyRefusal: true,
      meaning: expect.stringContaining('a sessid on a sticky port'),
    });
  });

  it('counts them as requests of their credential: the plan’s own login, or its proxy user', async () => {
    const own = await get<StatsErrorsResponse>(
      `/api/stats/errors?${range}&credential=plan:${customer.planId}`,
    );
    expect(counts(own.body)).toEqual({
      PARAM_CONFLICT: 1,
      UNKNOWN_PARAM: 1,
      INVALID_VALUE: 1,
      NO_RAY: 1,
      BAD_REQUEST: 1,
    });
    const user = await get<StatsErrorsResponse>(`/api/stats/errors?${range}&credential=user:${proxyUser.id}`);
    expect(counts(user.body)).toEqual({ PARAM_REQUIRES_COUNTRY: 1 });
    const series = await get<StatsSeriesResponse>(`/api/stats/series?${range}`);
    // The 2 probes met their target; of the 6 refusals, the grammar's 4 are our policy's, NO_RAY and
    // BAD_REQUEST count as failures of the customer's traffic.
    expect(series.body.totals).toMatchObject({ requests: 8, succeeded: 2, failed: 2, refusedByPolicy: 4 });
  });

  it('answers the same counts through the public API', async () => {
    const key = await fixture.server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: customer.token,
      body: { name: 'errors', scopes: ['read'], password: customer.accountPassword },
    });
    expect(key.status).toBe(201);
    const v1 = await get<{ errors: Array<{ code: string; count: number }> }>(
      `/api/v1/stats/errors?${range}`,
      key.body.secret,
    );
    expect(v1.status).toBe(200);
    expect(v1.body.errors).toContainEqual(expect.objectContaining({ code: 'PARAM_CONFLICT', count: 1 }));
    expect(v1.body.errors).toHaveLength(6);
  });
});
