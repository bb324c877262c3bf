import type { CustomerDetailResponse, CustomerSearchResponse } from '@bytegate/contracts/admin';
import { addUsage, createOrder } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomerWithPlan, createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Customer = Awaited<ReturnType<typeof createCustomerWithPlan>>;
type Staff = Awaited<ReturnType<typeof createUserWithRole>>;

describe.each(testDatabaseKinds())('back office customers on %s', (kind) => {
  let server: TestServer;
  let support: Staff;
  let admin: Staff;
  let customer: Customer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    support = await createUserWithRole(server, 'support');
    admin = await createUserWithRole(server, 'admin');
    customer = await createCustomerWithPlan(server, {
      overrides: { firstName: 'Grace', lastName: 'Hopper', company: 'Navy' },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const detailOf = async (userId: string, token = support.token) =>
    (await server.request<CustomerDetailResponse>('GET', `/api/admin/customers/${userId}`, { token })).body;

  describe('GET /api/admin/customers', () => {
    const search = async (q: string) => {
      const answer = await server.request<CustomerSearchResponse>(
        'GET',
        `/api/admin/customers?q=${encodeURIComponent(q)}`,
        { token: support.token },
      );
      expect(answer.status).toBe(200);
      return answer.body.customers;
    };

    it('lists the most recent accounts for an empty search', async () => {
      const customers = await search('');
      expect(customers[0]).toMatchObject({
        id: customer.userId,
        status: 'active',
        role: 'customer',
        balance: 45.05,
      });
      expect(customers.map((row) => row.email)).toEqual(
        expect.arrayContaining([customer.email, support.email, admin.email]),
      );
    });

    it('finds a customer by email, name, proxy login, allowlisted or seen IP, order number and invoice id', async () => {
      // Where the customer signed in from (the test server's clients all come from 127.0.0.1).
      await queryRows(
        server,
        `update sessions set ip_address = '198.51.100.7' where user_id = '${customer.userId}'`,
      );
      const allowlisted = await server.request('POST', '/api/subuser/allowlist', {
        token: customer.token,
        body: { subuser_id: customer.planId, address: '93.184.216.34' },
      });
      expect(allowlisted.status).toBe(201);
      const orders = await server.request<{ orders: Array<{ orderId: string }> }>('GET', '/api/orders', {
        token: customer.token,
      });
      const orderNumber = orders.body.orders[0]?.orderId ?? '';
      await createOrder(server.database.db, {
        userId: customer.userId,
        kind: 'topup',
        description: 'Top-up',
        amountCents: 25_00,
        paymentMethod: 'cryptomus',
        status: 'pending',
        providerInvoiceId: 'inv-7f3a9c',
      });
      const cases: Array<[string, string]> = [
        [customer.email.toUpperCase().slice(0, 12), 'email'],
        ['grace hop', 'name'],
        [customer.login, 'proxy_login'],
        ['93.184.216.34', 'ip'],
        ['198.51.100.7', 'ip'],
        [orderNumber, 'order'],
        [orderNumber.replace('BG-', ''), 'order'],
        ['inv-7f3a9c', 'invoice'],
      ];
      for (const [q, matchedBy] of cases) {
        const found = (await search(q)).find((row) => row.id === customer.userId);
        expect({ q, matchedBy: found?.matchedBy }).toEqual({ q, matchedBy });
      }
      expect(await search('no-such-thing@nowhere.test')).toEqual([]);
      // LIKE wildcards are searched as themselves.
      expect(await search('%')).toEqual([]);
    });

    it('refuses a search too long', async () => {
      const answer = await server.request('GET', `/api/admin/customers?q=${'x'.repeat(201)}`, {
        token: support.token,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: 'Search must be at most 200 characters',
        code: 'VALIDATION_FAILED',
      });
    });
  });

  describe('GET /api/admin/customers/:userId', () => {
    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      const malformed = await server.request('GET', '/api/admin/customers/nope', { token: support.token });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'User id must be a UUID', code: 'VALIDATION_FAILED' });
      const unknown = await server.request(
        'GET',
        '/api/admin/customers/00000000-0000-4000-8000-000000000000',
        {
          token: support.token,
        },
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'No such customer', code: 'NOT_FOUND' });
    });

    it("answers the customer's profile, ledger, plans, unblocks, orders and sessions", async () => {
      const detail = await detailOf(customer.userId);
      expect(detail.customer).toEqual({
        id: customer.userId,
        email: customer.email,
        firstName: 'Grace',
        lastName: 'Hopper',
        company: 'Navy',
        role: 'customer',
        status: 'active',
        twoFactorEnabledAt: null,
        balance: detail.customer.balance,
        createdAt: expect.any(String),
      });
      expect(detail.ledger.map((entry) => [entry.kind, entry.amount])).toEqual(
        expect.arrayContaining([
          ['adjustment', 50],
          ['purchase', -4.95],
        ]),
      );
      expect(detail.plans).toEqual([
        expect.objectContaining({
          id: customer.planId,
          poolType: 'datacenter',
          login: customer.login,
          trafficTotalBytes: 5 * 1024 ** 3,
          trafficUsedBytes: 0,
          isActive: true,
          savedTargeting: null,
        }),
      ]);
      expect(detail.plans[0]).not.toHaveProperty('password');
      expect(detail.unblocks).toEqual({ ports: [], hosts: [] });
      expect(detail.orders[0]).toMatchObject({
        orderId: expect.stringMatching(/^BG-/),
        status: expect.any(String),
      });
      expect(detail.sessions).toEqual([
        {
          id: expect.any(String),
          createdAt: expect.any(String),
          lastSeenAt: expect.any(String),
          current: false,
        },
      ]);
      expect(JSON.stringify(detail)).not.toMatch(/passwordHash|tokenHash/);
    });
  });

  describe('GET /api/admin/customers/:userId/usage', () => {
    it("answers the customer's traffic per UTC day over 30 days, every plan together", async () => {
      const today = new Date();
      const hour = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
      await addUsage(server.database.db, {
        planId: customer.planId,
        bucketStart: hour,
        bytes: 5_000,
        extraBytes: 0,
        requests: 3,
        errors: 1,
      });
      const answer = await server.request<{ days: Array<{ day: string; bytes: number; requests: number }> }>(
        'GET',
        `/api/admin/customers/${customer.userId}/usage`,
        { token: support.token },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.days).toHaveLength(30);
      expect(answer.body.days.at(-1)).toMatchObject({
        day: hour.toISOString().slice(0, 10),
        bytes: 5_000,
        requests: 3,
      });
      expect(answer.body.days.slice(0, -1).every((day) => day.bytes === 0)).toBe(true);
      const unknown = await server.request('GET', `/api/admin/customers/${crypto.randomUUID()}/usage`, {
        token: support.token,
      });
      expect(unknown.status).toBe(404);
    });
  });
});
