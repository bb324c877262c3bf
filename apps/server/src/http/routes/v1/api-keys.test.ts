import { API_KEY_SECRET, apiKeyMessages } from '@bytegate/contracts/api-keys';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyDatacenterPlan } from '../../../testing/gateway-fixture.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

// API keys (issue 17): created in User Settings with the password, the secret shown once and stored as
// a hash, listed with their last use, revoked; accepted on the public API only, each with its scopes and
// its own rate limit.

describe.each(testDatabaseKinds())('API keys on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      rateLimits: { apiKeyRequests: { max: 5, windowMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const createKey = (token: string, body: Record<string, unknown>) =>
    server.request<Record<string, unknown>>('POST', '/api/user-settings/api-keys', { token, body });

  it('creates a key with the password: the secret once, stored only as a hash, listed without it', async () => {
    const user = await createUserViaApi(server);
    const created = await createKey(user.token, {
      name: '  Reseller panel ',
      scopes: ['read', 'proxy_users', 'read'],
      expires_in_days: 90,
      password: user.password,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { key, secret } = created.body as { key: Record<string, unknown>; secret: string };
    expect(secret).toMatch(API_KEY_SECRET);
    expect(key).toMatchObject({
      name: 'Reseller panel',
      prefix: secret.slice(0, 12),
      scopes: ['read', 'proxy_users'],
      lastUsedAt: null,
      isExpired: false,
    });
    const days = (Date.parse(String(key.expiresAt)) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);
    const stored = await queryRows<{ secret_hash: string }>(server, 'select secret_hash from api_keys');
    expect(stored.some((row) => row.secret_hash.includes(secret.slice(8)))).toBe(false);
    const listed = await server.request<{ keys: Array<Record<string, unknown>> }>(
      'GET',
      '/api/user-settings/api-keys',
      { token: user.token },
    );
    expect(listed.body.keys).toEqual([key]);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(12));
  });

  it('refuses a wrong password, bad names, scopes and expiry with the messages', async () => {
    const user = await createUserViaApi(server);
    const wrong = await createKey(user.token, { name: 'k', scopes: ['read'], password: 'not it' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('WRONG_PASSWORD');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '  ', scopes: ['read'] }, apiKeyMessages.nameRequired],
      [{ name: 'x'.repeat(65), scopes: ['read'] }, apiKeyMessages.nameTooLong],
      [{ name: 'k', scopes: [] }, apiKeyMessages.scopesRequired],
      [{ name: 'k', scopes: ['admin'] }, apiKeyMessages.scopeUnknown],
      [{ name: 'k', scopes: ['read'], expires_in_days: 0 }, apiKeyMessages.expiryInvalid],
      [{ name: 'k', scopes: ['read'], expires_in_days: 1.5 }, apiKeyMessages.expiryInvalid],
      [{ name: 'k\u0000', scopes: ['read'] }, 'Name must not contain control characters (such as NUL)'],
    ];
    for (const [body, message] of cases) {
      const answer = await createKey(user.token, { ...body, password: user.password });
      expect(answer.status, message).toBe(400);
      expect(answer.body.error).toBe(message);
    }
  });

  it('is accepted on the public API only, and never on the dashboard, settings or console', async () => {
    const user = await createUserViaApi(server);
    const { secret } = (await createKey(user.token, { name: 'k', scopes: ['read'], password: user.password }))
      .body as { secret: string };
    expect((await server.request('GET', '/api/v1/plans', { token: secret })).status).toBe(200);
    for (const path of [
      '/api/auth/me',
      '/api/user-settings/api-keys',
      '/api/dashboard/stats',
      '/api/admin/customers',
    ]) {
      const refused = await server.request('GET', path, { token: secret });
      expect(refused.status, path).toBe(401);
      expect(refused.body.error, path).toBe(apiKeyMessages.keyNotAccepted);
    }
    // And a dashboard session token is not an API key.
    const session = await server.request('GET', '/api/v1/plans', { token: user.token });
    expect(session.status).toBe(401);
    expect(session.body.error).toBe(apiKeyMessages.invalidKey);
    expect((await server.request('GET', '/api/v1/plans')).body.error).toBe(apiKeyMessages.missingKey);
  });

  it('answers plans with their traffic to a read key, and 403 INSUFFICIENT_SCOPE to a key without read', async () => {
    const customer = await buyDatacenterPlan(server);
    const read = (
      await createKey(customer.token, {
        name: 'read',
        scopes: ['read'],
        password: customer.accountPassword,
      })
    ).body as { secret: string };
    const billing = (
      await createKey(customer.token, {
        name: 'billing',
        scopes: ['billing'],
        password: customer.accountPassword,
      })
    ).body as { secret: string };
    const plans = await server.request<{ plans: Array<Record<string, unknown>> }>('GET', '/api/v1/plans', {
      token: read.secret,
    });
    expect(plans.status).toBe(200);
    expect(plans.body.plans).toEqual([
      expect.objectContaining({
        id: customer.planId,
        pool_type: 'datacenter',
        login: customer.login,
        password: customer.password,
        is_active: true,
        traffic: { total_bytes: 5 * 1024 ** 3, used_bytes: 0, left_bytes: 5 * 1024 ** 3 },
      }),
    ]);
    const refused = await server.request('GET', '/api/v1/plans', { token: billing.secret });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: apiKeyMessages.insufficientScope('read'),
      code: 'INSUFFICIENT_SCOPE',
      required: 'read',
    });
  });

  it('notes its last use, limits each key on its own (429 with Retry-After), and stops at once when revoked', async () => {
    const user = await createUserViaApi(server);
    const mint = async (name: string) =>
      (await createKey(user.token, { name, scopes: ['read'], password: user.password })).body as {
        key: { id: string };
        secret: string;
      };
    const [first, second] = [await mint('one'), await mint('two')];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await server.request('GET', '/api/v1/plans', { token: first.secret })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await server.request('GET', '/api/v1/plans', { token: first.secret });
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The other key has its own budget.
    expect((await server.request('GET', '/api/v1/plans', { token: second.secret })).status).toBe(200);
    const listed = await server.request<{ keys: Array<{ id: string; lastUsedAt: string | null }> }>(
      'GET',
      '/api/user-settings/api-keys',
      { token: user.token },
    );
    expect(listed.body.keys.every((key) => key.lastUsedAt !== null)).toBe(true);
    const revoked = await server.request('DELETE', `/api/user-settings/api-keys/${second.key.id}`, {
      token: user.token,
    });
    expect(revoked.status).toBe(200);
    const after = await server.request('GET', '/api/v1/plans', { token: second.secret });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe(apiKeyMessages.invalidKey);
    expect(
      (await server.request('DELETE', `/api/user-settings/api-keys/${second.key.id}`, { token: user.token }))
        .status,
    ).toBe(404);
    expect(
      (await server.request('DELETE', '/api/user-settings/api-keys/not-an-id', { token: user.token })).status,
    ).toBe(404);
    // Another account cannot revoke it.
    const other = await createUserViaApi(server);
    expect(
      (await server.request('DELETE', `/api/user-settings/api-keys/${first.key.id}`, { token: other.token }))
        .status,
    ).toBe(404);
  });

  it('refuses an expired key, and a key of a disabled account', async () => {
    const user = await createUserViaApi(server);
    const { key, secret } = (
      await createKey(user.token, {
        name: 'short',
        scopes: ['read'],
        expires_in_days: 1,
        password: user.password,
      })
    ).body as { key: { id: string }; secret: string };
    await queryRows(
      server,
      `update api_keys set expires_at = now() - interval '1 second' where id = '${key.id}'`,
    );
    const expired = await server.request('GET', '/api/v1/plans', { token: secret });
    expect(expired.status).toBe(401);
    const listed = await server.request<{ keys: Array<{ isExpired: boolean }> }>(
      'GET',
      '/api/user-settings/api-keys',
      { token: user.token },
    );
    expect(listed.body.keys[0]?.isExpired).toBe(true);
    const live = (await createKey(user.token, { name: 'live', scopes: ['read'], password: user.password }))
      .body as { secret: string };
    await queryRows(server, `update users set disabled_at = now() where email = '${user.email}'`);
    expect((await server.request('GET', '/api/v1/plans', { token: live.secret })).status).toBe(401);
  });

  it('revokes every key of an account that is deleted', async () => {
    const user = await createUserViaApi(server);
    const { secret } = (await createKey(user.token, { name: 'k', scopes: ['read'], password: user.password }))
      .body as { secret: string };
    const deleted = await server.request('DELETE', '/api/user-settings/account', {
      token: user.token,
      body: { password: user.password },
    });
    expect(deleted.status).toBe(200);
    expect((await server.request('GET', '/api/v1/plans', { token: secret })).status).toBe(401);
    const rows = await queryRows<{ revoked: boolean }>(
      server,
      `select revoked_at is not null as revoked from api_keys where prefix = '${secret.slice(0, 12)}'`,
    );
    expect(rows).toEqual([{ revoked: true }]);
  });
});
