import { allowlistMessages, MAX_ALLOWLIST_ADDRESSES } from '@bytegate/contracts/allowlist';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Entry = { address: string; createdAt: string; verified: boolean };

describe.each(testDatabaseKinds())('plan allowlist API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A signed-in user who bought 5 GB of datacenter: answers the token and the plan id. */
  async function userWithPlan() {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 10_00, reason: 'test credit' },
    );
    const bought = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
      token: user.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
    expect(bought.status).toBe(201);
    return { token: user.token, planId: bought.body.plan.subUserId };
  }

  const list = (token: string, planId: string) =>
    server.request<{ addresses: Entry[]; max: number }>(
      'GET',
      `/api/subuser/allowlist?subuser_id=${encodeURIComponent(planId)}`,
      { token },
    );
  const add = (token: string, planId: string, address: unknown) =>
    server.request<Entry & { error?: string; code?: string }>('POST', '/api/subuser/allowlist', {
      token,
      body: { subuser_id: planId, address },
    });
  const remove = (token: string, planId: string, address: string) =>
    server.request<{ success?: true; error?: string; code?: string }>(
      'DELETE',
      `/api/subuser/allowlist?subuser_id=${encodeURIComponent(planId)}&address=${encodeURIComponent(address)}`,
      { token },
    );

  it('needs a signed-in owner of the plan', async () => {
    const { planId } = await userWithPlan();
    const stranger = await createUserViaApi(server);
    expect((await server.request('GET', `/api/subuser/allowlist?subuser_id=${planId}`)).status).toBe(401);
    expect((await list(stranger.token, planId)).status).toBe(404);
    expect((await add(stranger.token, planId, '8.8.4.4')).status).toBe(404);
  });

  it('adds, lists in canonical form, and removes IPv4 and IPv6 addresses', async () => {
    const { token, planId } = await userWithPlan();
    expect((await list(token, planId)).body).toEqual({
      addresses: [],
      max: MAX_ALLOWLIST_ADDRESSES,
      clientAddress: '127.0.0.1',
    });

    const v4 = await add(token, planId, ' 93.184.216.34 ');
    expect(v4.status).toBe(201);
    expect(v4.body.address).toBe('93.184.216.34');
    const v6 = await add(token, planId, '2606:4700:0:0:0:0:0:1111');
    expect(v6.status).toBe(201);
    expect(v6.body.address).toBe('2606:4700::1111');

    expect((await list(token, planId)).body.addresses.map((entry) => entry.address)).toEqual([
      '93.184.216.34',
      '2606:4700::1111',
    ]);
    // Removal takes any spelling of the same address.
    expect((await remove(token, planId, '2606:4700:0::1111')).body).toEqual({ success: true });
    expect((await remove(token, planId, '2606:4700::1111')).body).toEqual({
      error: allowlistMessages.notListed,
      code: 'NOT_FOUND',
    });
    expect((await list(token, planId)).body.addresses.map((entry) => entry.address)).toEqual([
      '93.184.216.34',
    ]);
  });

  it('refuses what is not an address, with the same message for every shape', async () => {
    const { token, planId } = await userWithPlan();
    for (const address of ['localhost', '10.0.0.0/8', '300.1.1.1', '', 42]) {
      const answer = await add(token, planId, address);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      if (typeof address === 'string') {
        expect(answer.body.error).toBe(allowlistMessages.invalidAddress);
      }
    }
    expect((await list(token, planId)).body.addresses).toEqual([]);
  });

  it('refuses addresses that cannot be a client’s public address, but takes the caller’s own', async () => {
    const { token, planId } = await userWithPlan();
    for (const address of [
      '0.0.0.0',
      '::',
      '224.0.0.1',
      'ff02::1',
      '10.1.2.3',
      '192.168.0.10',
      '169.254.169.254',
      '::1',
      '127.0.0.2',
      'fd00::1',
      '198.51.100.23',
      '2001:db8::42',
      '255.255.255.255',
    ]) {
      const answer = await add(token, planId, address);
      expect(answer.status, address).toBe(400);
      expect(answer.body, address).toEqual({
        error: allowlistMessages.notPublic,
        code: 'VALIDATION_FAILED',
        field: 'address',
      });
    }
    // This request comes from 127.0.0.1 (a local network, or development): that address is provably the
    // customer's, so it may be listed.
    expect((await add(token, planId, '127.0.0.1')).status).toBe(201);
  });

  it('lists an address on one of a customer’s plans only, naming the plan', async () => {
    const { token, planId } = await userWithPlan();
    expect((await add(token, planId, '192.0.3.10')).status).toBe(201);
    expect((await add(token, planId, '192.0.3.10')).body).toEqual({
      error: 'This address is already on the allowlist of your Datacenter plan',
      code: 'ALLOWLIST_ADDRESS_TAKEN',
    });
    const me = await server.request<{ user: { email: string } }>('GET', '/api/auth/me', { token });
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: me.body.user.email, amountCents: 10_00, reason: 'test credit' },
    );
    const residential = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
      token,
      body: { pool_type: 'residential', default_pool_parameters: { quantity: 5 } },
    });
    expect(residential.status).toBe(201);
    expect((await add(token, residential.body.plan.subUserId, '192.0.3.10')).body).toEqual({
      error: 'This address is already on the allowlist of your Datacenter plan',
      code: 'ALLOWLIST_ADDRESS_TAKEN',
    });
  });

  it('never reveals whether another customer lists an address', async () => {
    const first = await userWithPlan();
    const second = await userWithPlan();
    const byFirst = await add(first.token, first.planId, '192.0.3.20');
    const bySecond = await add(second.token, second.planId, '192.0.3.20');
    // The same answer as for an address nobody lists.
    expect(byFirst.status).toBe(201);
    expect(bySecond.status).toBe(201);
    expect(Object.keys(bySecond.body).sort()).toEqual(['address', 'createdAt', 'verified']);
    expect((await list(second.token, second.planId)).body.addresses.map((entry) => entry.address)).toEqual([
      '192.0.3.20',
    ]);
  });

  it(`holds at most ${MAX_ALLOWLIST_ADDRESSES} addresses per plan, even when added at once`, async () => {
    const { token, planId } = await userWithPlan();
    const answers = await Promise.all(
      Array.from({ length: MAX_ALLOWLIST_ADDRESSES + 5 }, (_, i) => add(token, planId, `192.0.3.${100 + i}`)),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_ALLOWLIST_ADDRESSES);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.map((answer) => answer.body)).toEqual(
      Array(5).fill({ error: allowlistMessages.listFull, code: 'ALLOWLIST_FULL' }),
    );
    expect((await list(token, planId)).body.addresses).toHaveLength(MAX_ALLOWLIST_ADDRESSES);
  });
});

describe('the client address behind a reverse proxy', () => {
  for (const [trustProxy, expected] of [
    [false, '127.0.0.1'],
    [1, '8.8.8.8'],
    [2, '1.1.1.1'],
    [['127.0.0.1'], '8.8.8.8'],
    [['10.0.0.0/8'], '127.0.0.1'],
  ] as const) {
    it(`is ${expected} with TRUST_PROXY ${JSON.stringify(trustProxy)}`, async () => {
      const server = await startTestServer('pglite', {
        trustProxy: Array.isArray(trustProxy) ? [...trustProxy] : (trustProxy as false | number),
      });
      try {
        const user = await createUserViaApi(server);
        await adjustBalance(
          { db: server.database.db, config: server.config },
          { email: user.email, amountCents: 10_00, reason: 'test credit' },
        );
        const bought = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
          token: user.token,
          body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
        });
        // A client claims 203.0.113.9; the proxies in front appended what they saw.
        const answer = await server.request<{ clientAddress: string }>(
          'GET',
          `/api/subuser/allowlist?subuser_id=${bought.body.plan.subUserId}`,
          { token: user.token, headers: { 'x-forwarded-for': '203.0.113.9, 1.1.1.1, 8.8.8.8' } },
        );
        expect(answer.body.clientAddress).toBe(expected);
      } finally {
        await server.close();
      }
    });
  }
});
