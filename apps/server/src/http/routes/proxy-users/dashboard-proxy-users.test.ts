import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyDatacenterPlan } from '../../../testing/gateway-fixture.ts';
import { startTestServer, type TestServer } from '../../../testing/test-server.ts';

// The dashboard's Proxy users tab calls the public API's proxy-user routes under /api with its session:
// the same service and rules, no scopes, and never an API key.

describe.each(testDatabaseKinds())('proxy users for a signed-in session on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates, lists, changes and deletes proxy users with the session, and refuses API keys and strangers', async () => {
    const customer = await buyDatacenterPlan(server);
    const token = customer.token;
    const created = await server.request<{
      proxy_user: { id: string; login: string; threads: number | null };
    }>('POST', `/api/plans/${customer.planId}/proxy-users`, {
      token,
      body: { label: 'shop', threads: 5, traffic_cap_gb: 2.5, cap_period: 'month' },
    });
    expect(created.status).toBe(201);
    const id = created.body.proxy_user.id;
    const listed = await server.request<{ proxy_users: Array<{ id: string }>; next_cursor: string | null }>(
      'GET',
      `/api/plans/${customer.planId}/proxy-users`,
      { token },
    );
    expect(listed.body).toMatchObject({ proxy_users: [{ id }], next_cursor: null });
    const changed = await server.request<{ proxy_user: { enabled: boolean } }>(
      'PATCH',
      `/api/proxy-users/${id}`,
      {
        token,
        body: { enabled: false },
      },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.proxy_user.enabled).toBe(false);

    // An API key is for /api/v1 only.
    const key = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token,
      body: { name: 'automation', scopes: ['read', 'proxy_users'], password: customer.accountPassword },
    });
    const withKey = await server.request('GET', `/api/proxy-users/${id}`, { token: key.body.secret });
    expect(withKey.status).toBe(401);
    // Without a session: 401; another account: 404.
    expect((await server.request('GET', `/api/proxy-users/${id}`)).status).toBe(401);
    const stranger = await buyDatacenterPlan(server);
    expect((await server.request('GET', `/api/proxy-users/${id}`, { token: stranger.token })).status).toBe(
      404,
    );
    expect(
      (await server.request('GET', `/api/plans/${customer.planId}/proxy-users`, { token: stranger.token }))
        .status,
    ).toBe(404);

    expect((await server.request('DELETE', `/api/proxy-users/${id}`, { token })).status).toBe(204);
    expect((await server.request('GET', `/api/proxy-users/${id}`, { token })).status).toBe(404);
  });

  it('documents the public API’s proxy-user routes with examples in the OpenAPI reference', async () => {
    const document = await server.request<{
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>
      >;
    }>('GET', '/api/openapi.json');
    const create = document.body.paths['/api/v1/plans/{id}/proxy-users']?.post;
    expect(create?.requestBody?.content['application/json']?.example).toMatchObject({
      traffic_cap_gb: 2.5,
      cap_period: 'month',
    });
    const move = document.body.paths['/api/v1/proxy-users/{id}/traffic']?.post;
    expect(JSON.stringify(move?.requestBody)).toContain('to_proxy_user');
    // The dashboard's copies are documented too, under their own tag.
    expect(document.body.paths['/api/plans/{id}/proxy-users']?.get).toBeDefined();
  });
});
