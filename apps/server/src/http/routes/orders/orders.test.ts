import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Order = { orderId: string; status: string; invoiceUrl: string; amount: number; description: string };
type OrdersPage = {
  orders: Order[];
  pagination: { currentPage: number; totalPages: number; totalItems: number; itemsPerPage: number };
};

describe.each(testDatabaseKinds())('orders API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  async function userWithPurchases(count: number) {
    const user = await createUserViaApi(server, { company: 'Acme <Labs>' });
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: count * 495, reason: 'test' },
    );
    for (let i = 0; i < count; i++) {
      await server.request('POST', '/api/subuser/create', {
        token: user.token,
        body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
      });
    }
    return user;
  }

  describe('GET /api/orders', () => {
    it('answers 401 without a token', async () => {
      expect((await server.request('GET', '/api/orders')).status).toBe(401);
    });

    it('refuses a bad page or limit', async () => {
      const { token } = await createUserViaApi(server);
      expect((await server.request('GET', '/api/orders?page=0', { token })).body).toEqual({
        error: 'Page must be 1 or more',
        code: 'VALIDATION_FAILED',
      });
      expect((await server.request('GET', '/api/orders?limit=1000', { token })).status).toBe(400);
      expect((await server.request('GET', '/api/orders?page=abc', { token })).status).toBe(400);
    });

    it('pages 10 at a time, newest first', async () => {
      const { token } = await userWithPurchases(12);
      const first = await server.request<OrdersPage>('GET', '/api/orders?page=1&limit=10', { token });
      expect(first.body.pagination).toEqual({
        currentPage: 1,
        totalPages: 2,
        totalItems: 12,
        itemsPerPage: 10,
      });
      expect(first.body.orders).toHaveLength(10);
      const second = await server.request<OrdersPage>('GET', '/api/orders?page=2&limit=10', { token });
      expect(second.body.orders).toHaveLength(2);
      const numbers = [...first.body.orders, ...second.body.orders].map((order) =>
        Number(order.orderId.slice(3)),
      );
      expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
      const empty = await server.request<OrdersPage>('GET', '/api/orders?page=3', { token });
      expect(empty.body.orders).toEqual([]);
    });
  });

  describe('GET /api/orders/{orderId}/invoice', () => {
    it('answers 401 without a token', async () => {
      expect((await server.request('GET', '/api/orders/BG-100001/invoice')).status).toBe(401);
    });

    it('serves a printable invoice for a completed order, with seller, buyer, line and amount', async () => {
      const { token, email } = await userWithPurchases(1);
      const { body } = await server.request<OrdersPage>('GET', '/api/orders', { token });
      const order = body.orders[0];
      expect(order?.invoiceUrl).toBe(`${server.url}/api/orders/${order?.orderId}/invoice`);
      const response = await fetch(order?.invoiceUrl ?? '', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      const html = await response.text();
      expect(html).toContain(`Invoice ${order?.orderId}`);
      expect(html).toContain('Datacenter proxy traffic, 5 GB');
      expect(html).toContain('$4.95');
      expect(html).toContain(email);
      expect(html).toContain('Acme &lt;Labs&gt;');
    });

    it("is a 404 for a pending order and for another user's order", async () => {
      const alice = await userWithPurchases(1);
      const bob = await createUserViaApi(server);
      const { body } = await server.request<OrdersPage>('GET', '/api/orders', { token: alice.token });
      const theirs = await server.request('GET', `/api/orders/${body.orders[0]?.orderId}/invoice`, {
        token: bob.token,
      });
      expect(theirs.status).toBe(404);
      const pending = await server.request<{ orderId: string }>(
        'POST',
        '/api/topup/cryptomus/create-invoice',
        {
          token: bob.token,
          body: { amount: 10 },
        },
      );
      const invoice = await server.request('GET', `/api/orders/${pending.body.orderId}/invoice`, {
        token: bob.token,
      });
      expect(invoice.status).toBe(404);
      expect(invoice.body).toEqual({ error: 'No invoice for this order', code: 'NOT_FOUND' });
    });
  });

  describe('GET /api/dashboard/stats', () => {
    it('counts active plans and the traffic left', async () => {
      const { token } = await userWithPurchases(2);
      const { body } = await server.request('GET', '/api/dashboard/stats', { token });
      expect(body).toEqual({
        metrics: { activePlans: 1, totalAvailableGb: 10, errorRate: 0, totalRequests: 0, totalErrors: 0 },
      });
    });
  });
});
