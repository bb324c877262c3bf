import { PROXY_LIST_FORMATS } from '@bytegate/contracts/proxy-list';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyDatacenterPlan } from '../../../testing/gateway-fixture.ts';
import { startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Proxy lists through the public API (issue 17): the six formats as txt, csv or json, the same lines
// the dashboard's list generator builds.

describe.each(testDatabaseKinds())('GET /api/v1/plans/:id/proxy-list on %s', (kind) => {
  let server: TestServer;
  let secret: string;
  let customer: Awaited<ReturnType<typeof buyDatacenterPlan>>;
  beforeAll(async () => {
    server = await startTestServer(kind);
    customer = await buyDatacenterPlan(server);
    const created = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: customer.token,
      body: { name: 'lists', scopes: ['read'], password: customer.accountPassword },
    });
    secret = created.body.secret;
  });
  afterAll(async () => {
    await server.close();
  });

  const list = (query: string, planId = customer.planId) =>
    fetch(`${server.url}/api/v1/plans/${planId}/proxy-list?${query}`, {
      headers: { authorization: `Bearer ${secret}` },
    });

  it('answers every format as text, one line each, rotating lines with distinct sessids', async () => {
    const { host, httpPort } = server.config.gateway;
    for (const { id } of PROXY_LIST_FORMATS) {
      const answer = await list(`format=${encodeURIComponent(id)}&quantity=5`);
      expect(answer.status, id).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/plain');
      const lines = (await answer.text()).trimEnd().split('\n');
      expect(lines, id).toHaveLength(5);
      for (const line of lines) {
        expect(line).toContain(`${host}:${httpPort}`);
      }
      if (id === 'host:port') {
        expect(new Set(lines).size).toBe(1);
      } else {
        expect(new Set(lines).size).toBe(5);
        expect(lines[0]).toContain(`${customer.login}__sessid.`);
        expect(lines[0]).toContain(customer.password);
      }
    }
    const scheme = await (
      await list('format=scheme://user:pass@host:port&protocol=socks5&quantity=1')
    ).text();
    expect(scheme).toMatch(
      new RegExp(`^socks5://${customer.login}__sessid\\.[a-z0-9]{10}:${customer.password}@`),
    );
  });

  it('answers a sticky list one port each, as json and csv with the parts of each line', async () => {
    const { stickyPorts, host } = server.config.gateway;
    const json = (await (await list('session=sticky&quantity=3&output=json')).json()) as {
      lines: Array<{ line: string; host: string; port: number; username: string; password: string }>;
    };
    expect(json.lines).toEqual(
      [0, 1, 2].map((i) => ({
        line: `${host}:${stickyPorts.first + i}:${customer.login}:${customer.password}`,
        host,
        port: stickyPorts.first + i,
        username: customer.login,
        password: customer.password,
      })),
    );
    const csv = await list('format=user:pass@host:port&quantity=2&output=csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = (await csv.text()).trimEnd().split('\r\n');
    expect(rows[0]).toBe('line,host,port,username,password');
    expect(rows).toHaveLength(3);
    const [line, , port, username] = (rows[1] ?? '').split(',');
    expect(line).toBe(`${username}:${customer.password}@${host}:${port}`);
  });

  it('bounds the quantity and names bad input; another plan is a 404', async () => {
    const sticky = server.config.gateway.stickyPorts;
    const over = await list(`session=sticky&quantity=${sticky.last - sticky.first + 2}`);
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: string }).error).toBe(
      `quantity must be at most ${sticky.last - sticky.first + 1} for a sticky list.`,
    );
    expect((await list('quantity=1001')).status).toBe(400);
    expect((await list('quantity=0')).status).toBe(400);
    expect(((await (await list('format=csv')).json()) as { error: string }).error).toContain(
      'format must be one of',
    );
    expect((await list('quantity=1', '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await list('quantity=1', 'not-an-id')).status).toBe(404);
  });

  it('carries a proxy user’s login and password with proxy_user_id; another plan’s or an unknown one is a 404', async () => {
    const created = await server.request<{ proxy_user: { id: string; login: string; password: string } }>(
      'POST',
      `/api/plans/${customer.planId}/proxy-users`,
      { token: customer.token, body: { label: 'list user' } },
    );
    const proxyUser = created.body.proxy_user;
    const answer = await list(`quantity=2&output=json&proxy_user_id=${proxyUser.id}`);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as {
      lines: Array<{ line: string; username: string; password: string }>;
    };
    expect(body.lines).toHaveLength(2);
    for (const part of body.lines) {
      expect(part.username).toMatch(new RegExp(`^${proxyUser.login}__sessid\\.`));
      expect(part.password).toBe(proxyUser.password);
      expect(part.line).toContain(proxyUser.password);
      expect(part.line).not.toContain(customer.login);
    }
    const text = await (
      await list(`quantity=1&format=user:pass@host:port&proxy_user_id=${proxyUser.id}`)
    ).text();
    expect(text).toContain(`${proxyUser.login}__sessid.`);
    expect((await list('quantity=1&proxy_user_id=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await list('quantity=1&proxy_user_id=nope')).status).toBe(404);
    const stranger = await buyDatacenterPlan(server);
    expect((await list(`quantity=1&proxy_user_id=${proxyUser.id}`, stranger.planId)).status).toBe(404);
  });

  it('regenerates a plan password with a proxy_users key (the list then carries the new one); 403 with read only', async () => {
    const refused = await server.request('POST', `/api/v1/plans/${customer.planId}/regenerate-password`, {
      token: secret,
    });
    expect(refused.status).toBe(403);
    const manager = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: customer.token,
      body: { name: 'manager', scopes: ['proxy_users', 'read'], password: customer.accountPassword },
    });
    const regenerated = await server.request<{ plan: { password: string; login: string } }>(
      'POST',
      `/api/v1/plans/${customer.planId}/regenerate-password`,
      { token: manager.body.secret },
    );
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.plan.login).toBe(customer.login);
    expect(regenerated.body.plan.password).not.toBe(customer.password);
    const line = await (await list('session=sticky&quantity=1')).text();
    expect(line.trim().endsWith(`:${regenerated.body.plan.password}`)).toBe(true);
    expect(
      (
        await server.request(
          'POST',
          '/api/v1/plans/00000000-0000-4000-8000-000000000000/regenerate-password',
          {
            token: manager.body.secret,
          },
        )
      ).status,
    ).toBe(404);
  });
});
