import { allowlistMessages } from '@bytegate/contracts/allowlist';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Audit issue 28, item 2: an address lets credential-less traffic in for one account at most, and only
// once that account proved it (added it by a request from that very address), for plans and proxy
// users alike; a second account is refused, and the refusal names no one. The server trusts one proxy
// hop here, so a request "comes from" the address its X-Forwarded-For says.

type Answer = { status: number; body: Record<string, unknown> };

describe.each(testDatabaseKinds())('allowlist addresses proved and held, on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { trustProxy: 1 });
  });
  afterAll(async () => {
    await server.close();
  });

  async function customer() {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 10_00, reason: 'test credit' },
    );
    const bought = await server.request<{ plan: { subUserId: string; login: string } }>(
      'POST',
      '/api/subuser/create',
      { token: user.token, body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } } },
    );
    expect(bought.status).toBe(201);
    return { ...user, planId: bought.body.plan.subUserId, login: bought.body.plan.login };
  }
  type Customer = Awaited<ReturnType<typeof customer>>;

  const from = (address: string | undefined): Record<string, string> =>
    address ? { 'x-forwarded-for': address } : {};
  const addToPlan = (who: Customer, address: string, at?: string): Promise<Answer> =>
    server.request('POST', '/api/subuser/allowlist', {
      token: who.token,
      body: { subuser_id: who.planId, address },
      headers: from(at),
    });
  const createProxyUser = (who: Customer, allowlist: string[], at?: string): Promise<Answer> =>
    server.request('POST', `/api/plans/${who.planId}/proxy-users`, {
      token: who.token,
      body: { allowlist },
      headers: from(at),
    });
  const patchProxyUser = (who: Customer, id: string, allowlist: string[], at?: string): Promise<Answer> =>
    server.request('PATCH', `/api/proxy-users/${id}`, {
      token: who.token,
      body: { allowlist },
      headers: from(at),
    });

  /** Whose the refusal is: nobody's, in words that hold nothing of the account that proved it. */
  function expectHeldElsewhere(answer: Answer, field: string, holder: Customer) {
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      error: allowlistMessages.heldByAnotherAccount,
      code: 'ALLOWLIST_ADDRESS_TAKEN',
      field,
    });
    const text = JSON.stringify(answer.body);
    for (const secret of [holder.email, holder.login, holder.planId]) {
      expect(text).not.toContain(secret);
    }
  }

  it('proves an address only when it is added from it, on a plan and on a proxy user alike', async () => {
    const owner = await customer();
    const typed = await addToPlan(owner, '8.8.4.4');
    expect(typed.status).toBe(201);
    expect(typed.body.verified).toBe(false);
    // Added again from that very address: the same entry, proved.
    const proved = await addToPlan(owner, '8.8.4.4', '8.8.4.4');
    expect(proved.status).toBe(201);
    expect(proved.body.verified).toBe(true);

    const created = await createProxyUser(owner, ['9.9.9.9', '149.112.112.112']);
    expect(created.status).toBe(201);
    const user = created.body.proxy_user as { id: string; allowlist_verified: string[] };
    expect(user.allowlist_verified).toEqual([]);
    const patched = await patchProxyUser(owner, user.id, ['9.9.9.9', '149.112.112.112'], '9.9.9.9');
    expect(patched.status).toBe(200);
    expect((patched.body.proxy_user as { allowlist_verified: string[] }).allowlist_verified).toEqual([
      '9.9.9.9',
    ]);
    // Kept proved while it stays listed; gone with it.
    const later = await patchProxyUser(owner, user.id, ['9.9.9.9']);
    expect((later.body.proxy_user as { allowlist_verified: string[] }).allowlist_verified).toEqual([
      '9.9.9.9',
    ]);
  });

  it('refuses, naming no one, an address another account proved on a plan, to a plan or a proxy user', async () => {
    const victim = await customer();
    expect((await addToPlan(victim, '8.8.8.8', '8.8.8.8')).body.verified).toBe(true);
    const attacker = await customer();
    expectHeldElsewhere(await addToPlan(attacker, '8.8.8.8'), 'address', victim);
    // Even from that address (another account behind the same one): one account holds it.
    expectHeldElsewhere(await addToPlan(attacker, '8.8.8.8', '8.8.8.8'), 'address', victim);
    expectHeldElsewhere(await createProxyUser(attacker, ['8.8.8.8']), 'allowlist', victim);
    const own = await createProxyUser(attacker, ['1.0.0.1']);
    expect(own.status).toBe(201);
    const ownId = (own.body.proxy_user as { id: string }).id;
    expectHeldElsewhere(await patchProxyUser(attacker, ownId, ['1.0.0.1', '8.8.8.8']), 'allowlist', victim);
    // The holder's own proxy users may list it.
    expect((await createProxyUser(victim, ['8.8.8.8'])).status).toBe(201);
  });

  it('refuses an address another account proved on a proxy user, to a plan or a proxy user', async () => {
    const victim = await customer();
    const held = await createProxyUser(victim, ['4.2.2.2'], '4.2.2.2');
    expect((held.body.proxy_user as { allowlist_verified: string[] }).allowlist_verified).toEqual([
      '4.2.2.2',
    ]);
    const attacker = await customer();
    expectHeldElsewhere(await addToPlan(attacker, '4.2.2.2', '4.2.2.2'), 'address', victim);
    expectHeldElsewhere(await createProxyUser(attacker, ['4.2.2.2'], '4.2.2.2'), 'allowlist', victim);
  });

  it('lets one of two accounts proving one address at once hold it', async () => {
    const [first, second] = [await customer(), await customer()];
    const answers = await Promise.all([
      addToPlan(first, '208.67.222.222', '208.67.222.222'),
      createProxyUser(second, ['208.67.222.222'], '208.67.222.222'),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
  });
});
