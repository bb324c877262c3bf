import type { PaymentDetailResponse, RefundPreview } from '@bytegate/contracts/admin-payments';
import { sumLedger } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payThroughSandbox } from '../../../testing/payments.ts';
import { createCustomerWithPlan, createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Support's $100 is a rolling 24-hour allowance (issue 28, item 6): per support member across customers,
// and per customer across support, counting balance adjustments, refunds and top-up approvals.

type Staff = Awaited<ReturnType<typeof createUserWithRole>>;
type Answer = { status: number; body: { error?: string; code?: string } };

const byMember = (moved: string) =>
  `Only an admin may do this: support may move at most $100.00 in 24 hours, and you moved ${moved} in that time; an admin must make this change`;
const onCustomer = (moved: string) =>
  `Only an admin may do this: support may move at most $100.00 of a customer's balance in 24 hours, and support moved ${moved} of this customer's in that time; an admin must make this change`;

describe.each(testDatabaseKinds())("support's 24-hour allowance on %s", (kind) => {
  let server: TestServer;
  let admin: Staff;
  beforeAll(async () => {
    // Webhooks go nowhere: the held top-up below is settled by staff's "check with provider".
    server = await startTestServer(kind, { publicUrl: 'http://127.0.0.1:9' });
    admin = await createUserWithRole(server, 'admin');
  });
  afterAll(async () => {
    await server?.close();
  });

  const credit = (token: string, userId: string, amount: string): Promise<Answer> =>
    server.request('POST', `/api/admin/customers/${userId}/balance`, {
      token,
      body: { amount, reason: 'goodwill credit' },
    });
  const statusOf = (answer: Answer) => answer.status;
  const balanceOf = (userId: string) => sumLedger(server.database.db, { userId });
  /** Writes a support member's audited actions 25 hours back (the log refuses updates, so the trigger is off meanwhile). */
  const age = async (staffUserId: string) => {
    await queryRows(server, 'alter table audit_log disable trigger audit_log_append_only');
    await queryRows(
      server,
      `update audit_log set created_at = created_at - interval '25 hours' where actor_user_id = '${staffUserId}'`,
    );
    await queryRows(server, 'alter table audit_log enable trigger audit_log_append_only');
  };

  it('refuses the second of five $100 credits to one customer; an admin makes it', async () => {
    const support = await createUserWithRole(server, 'support');
    const customer = await createCustomerWithPlan(server);
    const before = await balanceOf(customer.userId);
    const answers: Answer[] = [];
    for (let index = 0; index < 5; index += 1) {
      answers.push(await credit(support.token, customer.userId, '100'));
    }
    expect(answers.map(statusOf)).toEqual([200, 403, 403, 403, 403]);
    expect(answers[1]?.body).toEqual({ error: byMember('$100.00'), code: 'FORBIDDEN' });
    expect(await balanceOf(customer.userId)).toBe(before + 100_00);
    expect(statusOf(await credit(admin.token, customer.userId, '100'))).toBe(200);
    expect(statusOf(await credit(admin.token, customer.userId, '250'))).toBe(200);
    expect(await balanceOf(customer.userId)).toBe(before + 450_00);
  });

  it("counts a member's credits across customers, and debits too", async () => {
    const support = await createUserWithRole(server, 'support');
    const [first, second] = [await createCustomerWithPlan(server), await createCustomerWithPlan(server)];
    expect(statusOf(await credit(support.token, first.userId, '60'))).toBe(200);
    expect(statusOf(await credit(support.token, first.userId, '-15'))).toBe(200);
    const refused = await credit(support.token, second.userId, '25.01');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: byMember('$75.00'), code: 'FORBIDDEN' });
    expect(statusOf(await credit(support.token, second.userId, '25'))).toBe(200);
    // Another member still has their own allowance on a customer nobody else credited.
    const other = await createUserWithRole(server, 'support');
    expect(statusOf(await credit(other.token, second.userId, '75'))).toBe(200);
  });

  it('counts what all support moved on one customer; admins do not count', async () => {
    const [one, two] = [
      await createUserWithRole(server, 'support'),
      await createUserWithRole(server, 'support'),
    ];
    const customer = await createCustomerWithPlan(server);
    expect(statusOf(await credit(admin.token, customer.userId, '500'))).toBe(200);
    expect(statusOf(await credit(one.token, customer.userId, '60'))).toBe(200);
    const refused = await credit(two.token, customer.userId, '60');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: onCustomer('$60.00'), code: 'FORBIDDEN' });
    expect(statusOf(await credit(two.token, customer.userId, '40'))).toBe(200);
  });

  it('counts refunds and top-up approvals with credits', async () => {
    const support = await createUserWithRole(server, 'support');
    const customer = await createCustomerWithPlan(server);
    // The $4.95 purchase createCustomerWithPlan made, refunded whole.
    const [order] = await queryRows<{ number: number }>(
      server,
      `select number::int as number from orders where user_id = '${customer.userId}' and kind = 'purchase'`,
    );
    const purchase = `BG-${100000 + (order?.number ?? 0)}`;
    const refunded = await server.request('POST', `/api/admin/orders/${purchase}/refund`, {
      token: support.token,
      body: { reason: 'Wrong pool' },
    });
    expect(refunded.status).toBe(200);
    // A top-up paid in another coin, held for review, approved at $50.
    const topup = await payThroughSandbox(server, customer.token, {
      provider: 'cryptomus',
      amount: 80,
      outcome: 'underpay-coin',
    });
    const checked = await server.request<{ result: string }>('POST', `/api/admin/payments/${topup}/check`, {
      token: support.token,
    });
    expect(checked.body.result).toBe('review');
    const approved = await server.request<PaymentDetailResponse>(
      'POST',
      `/api/admin/payments/${topup}/approve`,
      {
        token: support.token,
        body: { amount: '50', reason: 'Arrived in another coin' },
      },
    );
    expect(approved.status).toBe(200);
    const refused = await credit(support.token, customer.userId, '45.06');
    expect(refused.body).toEqual({ error: byMember('$54.95'), code: 'FORBIDDEN' });
    expect(statusOf(await credit(support.token, customer.userId, '45.05'))).toBe(200);

    // The allowance is spent: a refund preview says an admin is needed, and the refund is refused.
    const bought = await server.request('POST', '/api/subuser/create', {
      token: customer.token,
      body: { pool_type: 'mobile', default_pool_parameters: { quantity: 5 } },
    });
    expect(bought.status).toBe(201);
    const [latest] = await queryRows<{ number: number }>(
      server,
      `select number::int as number from orders where user_id = '${customer.userId}' order by number desc limit 1`,
    );
    const second = `BG-${100000 + (latest?.number ?? 0)}`;
    const preview = await server.request<RefundPreview>('GET', `/api/admin/orders/${second}/refund`, {
      token: support.token,
    });
    expect(preview.body).toMatchObject({ needsAdmin: true, refusal: null });
    const adminPreview = await server.request<RefundPreview>('GET', `/api/admin/orders/${second}/refund`, {
      token: admin.token,
    });
    expect(adminPreview.body).toMatchObject({ needsAdmin: false, refusal: null });
    const refusedRefund = await server.request<{ error: string }>(
      'POST',
      `/api/admin/orders/${second}/refund`,
      {
        token: support.token,
        body: { reason: 'Wrong pool' },
      },
    );
    expect(refusedRefund.status).toBe(403);
    expect(refusedRefund.body.error).toBe(byMember('$100.00'));
  });

  it('rolls: what was moved more than 24 hours ago no longer counts', async () => {
    const support = await createUserWithRole(server, 'support');
    const customer = await createCustomerWithPlan(server);
    expect(statusOf(await credit(support.token, customer.userId, '100'))).toBe(200);
    expect(statusOf(await credit(support.token, customer.userId, '1'))).toBe(403);
    await age(support.userId);
    expect(statusOf(await credit(support.token, customer.userId, '100'))).toBe(200);
    expect(statusOf(await credit(support.token, customer.userId, '0.01'))).toBe(403);
  });

  it('lets one of two concurrent $60 credits through, by one member or on one customer', async () => {
    const support = await createUserWithRole(server, 'support');
    const [first, second] = [await createCustomerWithPlan(server), await createCustomerWithPlan(server)];
    const byOne = await Promise.all([
      credit(support.token, first.userId, '60'),
      credit(support.token, second.userId, '60'),
    ]);
    expect(byOne.map(statusOf).sort()).toEqual([200, 403]);
    expect((await balanceOf(first.userId)) + (await balanceOf(second.userId))).toBe(2 * 45_05 + 60_00);

    const [one, two] = [
      await createUserWithRole(server, 'support'),
      await createUserWithRole(server, 'support'),
    ];
    const customer = await createCustomerWithPlan(server);
    const onOne = await Promise.all([
      credit(one.token, customer.userId, '60'),
      credit(two.token, customer.userId, '60'),
    ]);
    expect(onOne.map(statusOf).sort()).toEqual([200, 403]);
    expect(await balanceOf(customer.userId)).toBe(45_05 + 60_00);
  });
});
