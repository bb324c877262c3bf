import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { IDEMPOTENCY_KEY_REUSED } from '../../../services/billing/purchase-plan.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

// Buying traffic through the public API (issue 17): scope `purchase`, and an Idempotency-Key that makes a
// retried request, however many race, buy once.

describe.each(testDatabaseKinds())('POST /api/v1/purchases on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  async function customerWithKey(scopes: string[], dollars = 100) {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: dollars * 100, reason: 'test credit' },
    );
    const created = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: user.token,
      body: { name: 'automation', scopes, password: user.password },
    });
    return { ...user, secret: created.body.secret };
  }
  const buy = (secret: string, body: Record<string, unknown>, idempotencyKey?: string) =>
    server.request<Record<string, unknown>>('POST', '/api/v1/purchases', {
      token: secret,
      body,
      headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
    });
  const purchasesOf = async (email: string) =>
    (
      await queryRows<{ count: number }>(
        server,
        `select count(*)::int as count from ledger_entries l join users u on u.id = l.user_id
         where u.email = '${email}' and l.kind = 'purchase'`,
      )
    )[0]?.count;

  it('buys once under 20 concurrent retries with one Idempotency-Key, every answer the same order', async () => {
    const customer = await customerWithKey(['purchase', 'read']);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        buy(customer.secret, { pool_type: 'datacenter', gb: 5 }, 'order-7f3a'),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const orderIds = new Set(answers.map((answer) => (answer.body.order as { id: string }).id));
    expect(orderIds.size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await purchasesOf(customer.email)).toBe(1);
    const [first] = answers;
    expect(first?.body.plan).toMatchObject({
      pool_type: 'datacenter',
      traffic: { total_bytes: 5 * 1024 ** 3, used_bytes: 0, left_bytes: 5 * 1024 ** 3 },
    });
    // The balance was debited once: a new key buys again from what is left.
    const again = await buy(customer.secret, { pool_type: 'datacenter', gb: 5 }, 'order-8b21');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await purchasesOf(customer.email)).toBe(2);
    const plans = await server.request<{ plans: Array<{ traffic: { total_bytes: number } }> }>(
      'GET',
      '/api/v1/plans',
      { token: customer.secret },
    );
    expect(plans.body.plans[0]?.traffic.total_bytes).toBe(10 * 1024 ** 3);
  });

  it('refuses the same key with another request (409), and buys each time without a key', async () => {
    const customer = await customerWithKey(['purchase']);
    expect((await buy(customer.secret, { pool_type: 'residential', gb: 5 }, 'k-1')).status).toBe(201);
    const reused = await buy(customer.secret, { pool_type: 'residential', gb: 6 }, 'k-1');
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual({ error: IDEMPOTENCY_KEY_REUSED, code: 'CONFLICT' });
    expect((await buy(customer.secret, { pool_type: 'residential', gb: 5 })).status).toBe(201);
    expect((await buy(customer.secret, { pool_type: 'residential', gb: 5 })).status).toBe(201);
    expect(await purchasesOf(customer.email)).toBe(3);
  });

  it('answers 403 to a key without the purchase scope, and 400 for a short balance or bad input', async () => {
    const reader = await customerWithKey(['read']);
    const refused = await buy(reader.secret, { pool_type: 'datacenter', gb: 5 }, 'x');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    expect(await purchasesOf(reader.email)).toBe(0);

    const poor = await customerWithKey(['purchase'], 1);
    const short = await buy(poor.secret, { pool_type: 'mobile', gb: 5 }, 'y');
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('INSUFFICIENT_BALANCE');
    expect((await buy(poor.secret, { pool_type: 'nope', gb: 5 })).status).toBe(400);
    expect((await buy(poor.secret, { pool_type: 'datacenter', gb: 0 })).status).toBe(400);
    const badKey = await buy(poor.secret, { pool_type: 'datacenter', gb: 5 }, 'has space');
    expect(badKey.status).toBe(400);
    expect(badKey.body.error).toContain('Idempotency-Key');
  });
});
