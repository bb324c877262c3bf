import type { CustomerDetailResponse } from '@bytegate/contracts/admin';
import { sumLedger } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { pollTopup } from '../../../testing/payments.ts';
import { createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// The ledger read back in order (issue 28, item 13): each row's balance before plus its amount is its
// balance after, also when purchases, top-ups, refunds and adjustments of one account race.

type Staff = Awaited<ReturnType<typeof createUserWithRole>>;
type LedgerRow = { seq: number; amount_cents: number; balance_after_cents: number };

describe.each(testDatabaseKinds())('the ledger in order after a 50-way race on %s', (kind) => {
  let server: TestServer;
  let admin: Staff;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await createUserWithRole(server, 'admin');
  });
  afterAll(async () => {
    await server?.close();
  });

  /**
   * Sends a request again while the server answers 503 DATABASE_UNAVAILABLE (no pool connection came in
   * time, so nothing was done), as a client honouring Retry-After would: a loaded machine sheds some of
   * 50 racing requests that way, and the race is about the ones that run.
   */
  async function untilServed(send: () => Promise<{ status: number }>): Promise<number> {
    for (let attempt = 1; ; attempt += 1) {
      const { status } = await send();
      if (status !== 503 || attempt === 10) {
        return status;
      }
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  const buy = (token: string) =>
    server.request('POST', '/api/subuser/create', {
      token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
  const detailOf = async (userId: string) =>
    (
      await server.request<CustomerDetailResponse>('GET', `/api/admin/customers/${userId}`, {
        token: admin.token,
      })
    ).body;

  it('chains every row to the one before, in the console and in seq order, and sums to the balance', {
    timeout: 120_000,
  }, async () => {
    const customer = await createUserWithRole(server, 'customer');
    const ctx = { db: server.database.db, config: server.config };
    await adjustBalance(ctx, { userId: customer.userId, amountCents: 1000_00, reason: 'test credit' });
    // Ten purchases to refund during the race, and five top-up invoices to pay during it.
    for (let index = 0; index < 10; index += 1) {
      expect((await buy(customer.token)).status).toBe(201);
    }
    const toRefund = (await detailOf(customer.userId)).orders
      .filter((order) => order.kind === 'purchase')
      .map((order) => order.orderId);
    expect(toRefund).toHaveLength(10);
    const invoices = await Promise.all(
      Array.from({ length: 5 }, async (_, index) => {
        const invoice = await server.request<{ orderId: string; invoiceUrl: string }>(
          'POST',
          '/api/topup/cryptomus/create-invoice',
          { token: customer.token, body: { amount: 10 + index } },
        );
        expect(invoice.status).toBe(201);
        return invoice.body;
      }),
    );

    const race = [
      ...Array.from({ length: 20 }, () => untilServed(() => buy(customer.token))),
      ...Array.from({ length: 15 }, (_, index) =>
        untilServed(() =>
          server.request('POST', `/api/admin/customers/${customer.userId}/balance`, {
            token: admin.token,
            body: {
              amount: index % 3 === 0 ? `-${index + 1}` : `${index + 1}.25`,
              reason: 'race adjustment',
            },
          }),
        ),
      ),
      ...toRefund.map((orderId) =>
        untilServed(() =>
          server.request('POST', `/api/admin/orders/${orderId}/refund`, {
            token: admin.token,
            body: { reason: 'race refund' },
          }),
        ),
      ),
      ...invoices.map((invoice) =>
        untilServed(() =>
          fetch(`${server.url}${new URL(invoice.invoiceUrl).pathname}/pay`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: '',
          }),
        ),
      ),
    ];
    expect(race).toHaveLength(50);
    const statuses = await Promise.all(race);
    // Every purchase and adjustment went through (the balance covers them all); refunds of one plan may
    // find its unused traffic already taken back by another (409), which moves nothing.
    expect(statuses.slice(0, 35).filter((status) => status !== 200 && status !== 201)).toEqual([]);
    expect(statuses.slice(35, 45).filter((status) => status !== 200 && status !== 409)).toEqual([]);
    for (const invoice of invoices) {
      const polled = await pollTopup(server, customer.token, 'cryptomus', invoice.orderId);
      expect(polled.orderStatus).toBe('completed');
    }

    const rows = await queryRows<LedgerRow>(
      server,
      `select seq::int as seq, amount_cents::int as amount_cents, balance_after_cents::int as balance_after_cents
       from ledger_entries where user_id = '${customer.userId}' order by seq`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(1 + 10 + 20 + 15 + 5);
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index + 1));
    let balanceCents = 0;
    for (const row of rows) {
      expect(balanceCents + row.amount_cents).toBe(row.balance_after_cents);
      balanceCents = row.balance_after_cents;
    }
    const [user] = await queryRows<{ balance_cents: number }>(
      server,
      `select balance_cents::int as balance_cents from users where id = '${customer.userId}'`,
    );
    expect(balanceCents).toBe(user?.balance_cents);
    expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(balanceCents);

    // The console lists the same rows newest first, each balance the next older one's plus its amount.
    const { ledger } = await detailOf(customer.userId);
    expect(ledger).toHaveLength(rows.length);
    const oldestFirst = [...ledger].reverse();
    let shownCents = 0;
    for (const entry of oldestFirst) {
      expect(shownCents + Math.round(entry.amount * 100)).toBe(Math.round(entry.balanceAfter * 100));
      shownCents = Math.round(entry.balanceAfter * 100);
    }
  });
});
