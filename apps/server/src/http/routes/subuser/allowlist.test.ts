import { allowlistMessages, MAX_ALLOWLIST_ADDRESSES } from '@bytegate/contracts/allowlist';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Entry = { address: string; createdAt: string };

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
    expect((await add(stranger.token, planId, '203.0.113.7')).status).toBe(404);
  });

  it('adds, lists in canonical form, and removes IPv4 and IPv6 addresses', async () => {
    const { token, planId } = await userWithPlan();
    expect((await list(token, planId)).body).toEqual({
      addresses: [],
      max: MAX_ALLOWLIST_ADDRESSES,
      clientAddress: '127.0.0.1',
    });

    const v4 = await add(token, planId, ' 198.51.100.23 ');
    expect(v4.status).toBe(201);
    expect(v4.body.address).toBe('198.51.100.23');
    const v6 = await add(token, planId, '2001:DB8:0:0:0:0:0:42');
    expect(v6.status).toBe(201);
    expect(v6.body.address).toBe('2001:db8::42');

    expect((await list(token, planId)).body.addresses.map((entry) => entry.address)).toEqual([
      '198.51.100.23',
      '2001:db8::42',
    ]);
    // Removal takes any spelling of the same address.
    expect((await remove(token, planId, '2001:db8:0::42')).body).toEqual({ success: true });
    expect((await remove(token, planId, '2001:db8::42')).body).toEqual({
      error: allowlistMessages.notListed,
      code: 'NOT_FOUND',
    });
    expect((await list(token, planId)).body.addresses.map((entry) => entry.address)).toEqual([
      '198.51.100.23',
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

  it('gives one address to one plan only, across users', async () => {
    const first = await userWithPlan();
    const second = await userWithPlan();
    expect((await add(first.token, first.planId, '192.0.2.10')).status).toBe(201);
    expect((await add(first.token, first.planId, '192.0.2.10')).body).toEqual({
      error: allowlistMessages.addressTaken,
      code: 'ALLOWLIST_ADDRESS_TAKEN',
    });
    const taken = await add(second.token, second.planId, '192.0.2.10');
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('ALLOWLIST_ADDRESS_TAKEN');
    expect((await list(second.token, second.planId)).body.addresses).toEqual([]);
  });

  it(`holds at most ${MAX_ALLOWLIST_ADDRESSES} addresses per plan, even when added at once`, async () => {
    const { token, planId } = await userWithPlan();
    const answers = await Promise.all(
      Array.from({ length: MAX_ALLOWLIST_ADDRESSES + 5 }, (_, i) => add(token, planId, `192.0.2.${100 + i}`)),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_ALLOWLIST_ADDRESSES);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.map((answer) => answer.body)).toEqual(
      Array(5).fill({ error: allowlistMessages.listFull, code: 'ALLOWLIST_FULL' }),
    );
    expect((await list(token, planId)).body.addresses).toHaveLength(MAX_ALLOWLIST_ADDRESSES);
  });
});
