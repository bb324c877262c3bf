import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { addUsage, sumLedger } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

type Plan = { subUserId: string; login: string; password: string; balance: number; poolType: string };

describe.each(testDatabaseKinds())('plans API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A signed-in user with `dollars` on the balance, credited through the ledger. */
  async function fundedUser(dollarsCents: number) {
    const user = await createUserViaApi(server);
    if (dollarsCents > 0) {
      await adjustBalance(
        { db: server.database.db, config: server.config },
        { email: user.email, amountCents: dollarsCents, reason: 'test credit' },
      );
    }
    return user;
  }

  const buy = (token: string, poolType: string, quantity: unknown, label?: string) =>
    server.request<Record<string, unknown>>('POST', '/api/subuser/create', {
      token,
      body: { label, pool_type: poolType, default_pool_parameters: { quantity } },
    });

  describe('POST /api/subuser/create', () => {
    it('answers 401 without a token', async () => {
      expect((await server.request('POST', '/api/subuser/create', { body: {} })).status).toBe(401);
    });

    it('refuses fewer than 5 GB, fractions, unknown pools', async () => {
      const { token } = await fundedUser(100_00);
      expect((await buy(token, 'datacenter', 4)).body).toEqual({
        error: 'The minimum purchase is 5 GB',
        code: 'VALIDATION_FAILED',
      });
      expect((await buy(token, 'datacenter', 5.5)).body.error).toBe('Quantity must be a whole number of GB');
      expect((await buy(token, 'datacenter', '5')).status).toBe(400);
      expect((await buy(token, 'premium', 5)).body.error).toBe(
        'Pool type must be one of datacenter, residential, mobile',
      );
    });

    it('answers Insufficient balance with the required and current amounts, and changes nothing', async () => {
      const { token } = await fundedUser(10_00);
      const { status, body } = await buy(token, 'residential', 6);
      expect(status).toBe(400);
      expect(body).toEqual({
        error: 'Insufficient balance',
        code: 'INSUFFICIENT_BALANCE',
        required: 11.94,
        current: 10,
      });
      expect((await server.request('GET', '/api/account/balance', { token })).body).toEqual({
        balance: 10,
        balanceCents: 1000,
      });
      expect((await server.request('GET', '/api/subuser/check', { token })).body).toEqual({
        hasProxyPlan: false,
      });
    });

    it('debits the exact price, creates the plan and a completed order', async () => {
      const { token } = await fundedUser(10_00);
      const { status, body } = await buy(token, 'datacenter', 5, 'Scraper');
      expect(status).toBe(201);
      expect(body.balance).toBe(5.05);
      const plan = body.plan as Plan & Record<string, unknown>;
      expect(plan).toMatchObject({
        poolType: 'datacenter',
        label: 'Scraper',
        balance: 5 * BYTES_PER_GB,
        balanceFormat: '5.00 GB',
        threads: 500,
        active: true,
      });
      expect(plan.login).toMatch(/^bg[a-z0-9]{10}$/);
      expect(plan.password).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(body.order).toMatchObject({
        description: 'Datacenter proxy traffic, 5 GB',
        amount: 4.95,
        currency: 'USD',
        paymentMethod: 'Account balance',
        status: 'completed',
      });
      expect((await server.request('GET', '/api/account/balance', { token })).body.balance).toBe(5.05);
    });

    it('adds traffic to the existing plan of the pool, keeping its credentials', async () => {
      const { token } = await fundedUser(50_00);
      const first = (await buy(token, 'mobile', 5)).body.plan as Plan;
      const second = await buy(token, 'mobile', 7);
      expect(second.status).toBe(201);
      const plan = second.body.plan as Plan;
      expect(plan.subUserId).toBe(first.subUserId);
      expect(plan.login).toBe(first.login);
      expect(plan.balance).toBe(12 * BYTES_PER_GB);
      expect(second.body.balance).toBe(2.12); // $50.00 - 12 x $3.99
    });

    it('gives 50 concurrent purchases against a balance that covers 10 exactly 10 successes', async () => {
      const { token, email } = await fundedUser(10 * 495);
      const results = await Promise.all(Array.from({ length: 50 }, () => buy(token, 'datacenter', 5)));
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      expect(statuses.filter((status) => status === 400)).toHaveLength(40);
      const balance = await server.request('GET', '/api/account/balance', { token });
      expect(balance.body).toEqual({ balance: 0, balanceCents: 0 });
      const [user] = await queryRows<{ id: string }>(server, `select id from users where email = '${email}'`);
      expect(await sumLedger(server.database.db, { userId: user?.id ?? '' })).toBe(0);
      const plan = await server.request<Plan>('GET', '/api/subuser/plan?pool_type=datacenter', { token });
      expect(plan.body.balance).toBe(50 * BYTES_PER_GB);
      const orders = await server.request<{ pagination: { totalItems: number } }>('GET', '/api/orders', {
        token,
      });
      // 10 purchases plus nothing else: the adjustment is a ledger row, not an order.
      expect(orders.body.pagination.totalItems).toBe(10);
    });
  });

  describe('reading plans', () => {
    it('answers 401 without a token', async () => {
      for (const path of ['/api/subuser/check', '/api/subuser/plans', '/api/subuser/plan?pool_type=mobile']) {
        expect((await server.request('GET', path)).status).toBe(401);
      }
    });

    it('checks, lists and reads plans per pool; a pool without a plan is a 404', async () => {
      const { token } = await fundedUser(20_00);
      expect((await server.request('GET', '/api/subuser/check', { token })).body).toEqual({
        hasProxyPlan: false,
      });
      expect((await server.request('GET', '/api/subuser/plans', { token })).body).toEqual({ plans: [] });
      await buy(token, 'residential', 5);
      expect((await server.request('GET', '/api/subuser/check', { token })).body).toEqual({
        hasProxyPlan: true,
      });
      const plans = await server.request<{ plans: Plan[] }>('GET', '/api/subuser/plans', { token });
      expect(plans.body.plans.map((plan) => plan.poolType)).toEqual(['residential']);
      const residential = await server.request<Plan>('GET', '/api/subuser/plan?pool_type=residential', {
        token,
      });
      expect(residential.status).toBe(200);
      const mobile = await server.request('GET', '/api/subuser/plan?pool_type=mobile', { token });
      expect(mobile.status).toBe(404);
      expect(mobile.body).toEqual({ error: 'No plan found', code: 'NOT_FOUND' });
      const byId = await server.request<Plan>(
        'GET',
        `/api/subusers/get?subuser_id=${residential.body.subUserId}`,
        { token },
      );
      expect(byId.body.balance).toBe(5 * BYTES_PER_GB);
    });

    it("never shows one user another user's plan or orders", async () => {
      const alice = await fundedUser(10_00);
      const bob = await fundedUser(0);
      const plan = (await buy(alice.token, 'datacenter', 5)).body.plan as Plan;
      const peek = await server.request('GET', `/api/subusers/get?subuser_id=${plan.subUserId}`, {
        token: bob.token,
      });
      expect(peek.status).toBe(404);
      const garbage = await server.request('GET', '/api/subusers/get?subuser_id=not-a-uuid', {
        token: bob.token,
      });
      expect(garbage.status).toBe(404);
      const orders = await server.request<{ orders: unknown[] }>('GET', '/api/orders', { token: bob.token });
      expect(orders.body.orders).toEqual([]);
    });

    it('deactivates the plans of a deleted account and keeps its orders and ledger', async () => {
      const { token, email, password } = await fundedUser(10_00);
      const plan = (await buy(token, 'datacenter', 5)).body.plan as Plan;
      const [user] = await queryRows<{ id: string }>(server, `select id from users where email = '${email}'`);
      await server.request('DELETE', '/api/user-settings/account', { token, body: { password } });
      const [row] = await queryRows(server, `select is_active from plans where id = '${plan.subUserId}'`);
      expect(row?.is_active).toBe(false);
      const orders = await queryRows(server, `select status from orders where user_id = '${user?.id}'`);
      expect(orders).toEqual([{ status: 'completed' }]);
      expect(await sumLedger(server.database.db, { userId: user?.id ?? '' })).toBe(505);
    });
  });

  describe('GET /api/subuser/usage', () => {
    it('answers 401 without a token', async () => {
      expect((await server.request('GET', '/api/subuser/usage?subuser_id=x&period=week')).status).toBe(401);
    });

    it("sums the plan's usage buckets over the period, and 404s another user's plan", async () => {
      const { token } = await fundedUser(10_00);
      const other = await fundedUser(0);
      const plan = (await buy(token, 'residential', 5)).body.plan as Plan;
      const hour = 60 * 60 * 1000;
      const now = Math.floor(Date.now() / hour) * hour;
      const bucket = (
        hoursAgo: number,
        bytes: number,
        extraBytes: number,
        requests: number,
        errors: number,
      ) =>
        addUsage(server.database.db, {
          planId: plan.subUserId,
          bucketStart: new Date(now - hoursAgo * hour),
          bytes,
          extraBytes,
          requests,
          errors,
        });
      await bucket(1, 1000, 0, 10, 1);
      await bucket(1, 500, 500, 5, 0);
      await bucket(30, 2000, 0, 20, 2);
      await bucket(24 * 8, 9000, 0, 90, 9);

      const week = await server.request(
        'GET',
        `/api/subuser/usage?subuser_id=${plan.subUserId}&period=week`,
        { token },
      );
      expect(week.body.total).toEqual({ traffic: 3500, extra_traffic: 500, requests: 35, errors: 3 });
      const day = await server.request('GET', `/api/subuser/usage?subuser_id=${plan.subUserId}&period=day`, {
        token,
      });
      expect(day.body.total).toEqual({ traffic: 1500, extra_traffic: 500, requests: 15, errors: 1 });
      const stats = await server.request('GET', '/api/dashboard/stats', { token });
      expect(stats.body).toMatchObject({ metrics: { totalRequests: 125, totalErrors: 12, errorRate: 9.6 } });

      const peek = await server.request(
        'GET',
        `/api/subuser/usage?subuser_id=${plan.subUserId}&period=week`,
        {
          token: other.token,
        },
      );
      expect(peek.status).toBe(404);
      const badPeriod = await server.request(
        'GET',
        `/api/subuser/usage?subuser_id=${plan.subUserId}&period=year`,
        {
          token,
        },
      );
      expect(badPeriod.body).toEqual({
        error: 'Period must be day, week or month',
        code: 'VALIDATION_FAILED',
      });
    });
  });
});
