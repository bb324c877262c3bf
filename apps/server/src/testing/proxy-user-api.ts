import { apiKeyMessages } from '@bytegate/contracts/api-keys';
import { expect } from 'vitest';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { createUserViaApi, type TestServer } from './test-server.ts';

// The public API's proxy-user routes as tests call them: a customer with traffic and a key, and the
// calls and the refusals' shapes (routes/v1/proxy-users.test.ts, routes/v1/proxy-user-traffic.test.ts).

export const GB = 1024 ** 3;

export type Answer = { status: number; body: Record<string, unknown> };
export type ProxyUser = {
  id: string;
  plan_id: string;
  login: string;
  password: string;
  label: string;
  enabled: boolean;
  traffic_cap: { bytes: number; gb: number; period: string } | null;
  threads: number | null;
  usage: {
    period_used_bytes: number;
    period_start: string | null;
    cap_left_bytes: number | null;
    lifetime_used_bytes: number;
  };
  targeting: Record<string, unknown> | null;
  allowlist: string[];
  allowlist_verified: string[];
  created_at: string;
  updated_at: string;
};

/** A customer with 5 GB of datacenter traffic and a key with every scope it needs. */
export type ProxyUserCustomer = Awaited<ReturnType<typeof createUserViaApi>> & {
  secret: string;
  planId: string;
  threads: number;
};

/** Calls of the proxy-user routes on `server`, with a customer to make them as. */
export function proxyUserApi(server: TestServer) {
  const call = (method: string, path: string, secret: string, body?: unknown) =>
    server.request<Record<string, unknown>>(method, path, {
      token: secret,
      ...(body === undefined ? {} : { body }),
    });

  async function mintKey(user: { token: string; password: string }, scopes: string[]) {
    const created = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: user.token,
      body: { name: scopes.join(' '), scopes, password: user.password },
    });
    expect(created.status).toBe(201);
    return created.body.secret;
  }

  /** A customer with 5 GB of datacenter traffic bought through the API and a key with every scope. */
  async function customer(): Promise<ProxyUserCustomer> {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 100_00, reason: 'test credit' },
    );
    const secret = await mintKey(user, ['read', 'proxy_users', 'purchase']);
    const bought = await call('POST', '/api/v1/purchases', secret, { pool_type: 'datacenter', gb: 5 });
    expect(bought.status).toBe(201);
    const planId = (bought.body.plan as { id: string }).id;
    const plans = await server.request<{ plans: Array<{ id: string; threads: number }> }>(
      'GET',
      '/api/v1/plans',
      { token: secret },
    );
    const threads = plans.body.plans.find((plan) => plan.id === planId)?.threads as number;
    return { ...user, secret, planId, threads };
  }

  const create = (who: ProxyUserCustomer, body: Record<string, unknown> = {}, secret = who.secret) =>
    call('POST', `/api/v1/plans/${who.planId}/proxy-users`, secret, body);
  async function created(who: ProxyUserCustomer, body: Record<string, unknown> = {}): Promise<ProxyUser> {
    const answer = await create(who, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.proxy_user as ProxyUser;
  }
  const getOne = (id: string, secret: string) => call('GET', `/api/v1/proxy-users/${id}`, secret);
  const patch = (id: string, secret: string, body: Record<string, unknown>) =>
    call('PATCH', `/api/v1/proxy-users/${id}`, secret, body);
  const move = (id: string, secret: string, direction: 'to_proxy_user' | 'to_plan', gb: number) =>
    call('POST', `/api/v1/proxy-users/${id}/traffic`, secret, { direction, gb });
  const list = (who: ProxyUserCustomer, query = '', secret = who.secret) =>
    server.request<{ proxy_users: ProxyUser[]; next_cursor: string | null }>(
      'GET',
      `/api/v1/plans/${who.planId}/proxy-users${query}`,
      { token: secret },
    );

  function expectInvalid(answer: Answer, error: string, field: string) {
    expect(answer.status, error).toBe(400);
    expect(answer.body, error).toEqual({ error, code: 'VALIDATION_FAILED', field });
  }
  function expectNotFound(answer: Answer, error: string) {
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error, code: 'NOT_FOUND' });
  }
  function expectScopeRefused(answer: Answer, required: 'read' | 'proxy_users') {
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      error: apiKeyMessages.insufficientScope(required),
      code: 'INSUFFICIENT_SCOPE',
      required,
    });
  }
  const capOf = async (id: string, secret: string) =>
    ((await getOne(id, secret)).body.proxy_user as ProxyUser).traffic_cap;
  return {
    call,
    mintKey,
    customer,
    create,
    created,
    getOne,
    patch,
    move,
    list,
    capOf,
    expectInvalid,
    expectNotFound,
    expectScopeRefused,
  };
}
