import type { CustomerDetailResponse } from '@bytegate/contracts/admin';
import type { RefundPreview, RefundResponse } from '@bytegate/contracts/admin-payments';
import { sumLedger } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { payThroughSandbox, pollTopup } from '../../../testing/payments.ts';
import { createCustomerWithPlan, createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

const GB = 1024 ** 3;
type Staff = Awaited<ReturnType<typeof createUserWithRole>>;
type Answer<T> = { status: number; body: T & { error?: string; code?: string } };

describe.each(testDatabaseKinds())('refunds from the back office on %s', (kind) => {
  let server: TestServer;
  let support: Staff;
  let admin: Staff;
  beforeAll(async () => {
    server = await startTestServer(kind);
    support = await createUserWithRole(server, 'support');
    admin = await createUserWithRole(server, 'admin');
  });
  afterAll(async () => {
    await server?.close();
  });

  const preview = (orderId: string, token = support.token): Promise<Answer<RefundPreview>> =>
    server.request('GET', `/api/admin/orders/${orderId}/refund`, { token });
  const refund = (orderId: string, body: Record<string, unknown>, token = support.token) =>
    server.request<RefundResponse & { error?: string; code?: string }>(
      'POST',
      `/api/admin/orders/${orderId}/refund`,
      { token, body },
    );
  const detailOf = async (userId: string) =>
    (
      await server.request<CustomerDetailResponse>('GET', `/api/admin/customers/${userId}`, {
        token: admin.token,
      })
    ).body;
  /** The customer's newest order, the 5 GB purchase createCustomerWithPlan made. */
  const purchaseOf = async (userId: string) => (await detailOf(userId)).orders[0]?.orderId ?? '';
  const setUsed = (planId: string, bytes: number) =>
    queryRows(server, `update plans set traffic_used_bytes = ${bytes} where id = '${planId}'`);
  const setCompletedAgo = (orderId: string, interval: string) =>
    queryRows(
      server,
      `update orders set completed_at = now() - interval '${interval}' where number = ${Number(orderId.slice(3)) - 100000}`,
    );
  const customerView = async (token: string) => {
    const plans = await server.request<{ plans: Array<{ balance: number; trafficTotalBytes: number }> }>(
      'GET',
      '/api/subuser/plans',
      { token },
    );
    const balance = await server.request<{ balance: number }>('GET', '/api/account/balance', { token });
    return { plan: plans.body.plans[0], balance: balance.body.balance };
  };

  it('refuses without a reason, a malformed order and an unknown one', async () => {
    const customer = await createCustomerWithPlan(server);
    const orderId = await purchaseOf(customer.userId);
    expect((await refund(orderId, {})).body).toEqual({
      error: 'Reason is required',
      code: 'VALIDATION_FAILED',
    });
    expect((await preview('ORD-1')).body).toEqual({
      error: 'Order must be an order number like BG-100001',
      code: 'VALIDATION_FAILED',
    });
    const unknown = await preview('BG-999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'No order BG-999999', code: 'NOT_FOUND' });
  });

  it("refunds an untouched purchase whole: the plan's total and the balance move, once", async () => {
    const customer = await createCustomerWithPlan(server);
    const orderId = await purchaseOf(customer.userId);
    const shown = await preview(orderId);
    expect(shown.body).toEqual({
      orderId,
      kind: 'purchase',
      amount: 4.95,
      boughtBytes: 5 * GB,
      refundBytes: 5 * GB,
      planId: customer.planId,
      planTotalBytes: 5 * GB,
      planTotalAfterBytes: 0,
      planUsedBytes: 0,
      balance: 45.05,
      balanceAfter: 50,
      refundableUntil: expect.any(String),
      needsAdmin: false,
      refusal: null,
    });
    // Previewing moves nothing.
    expect((await detailOf(customer.userId)).customer.balance).toBe(45.05);

    const done = await refund(orderId, { reason: 'Customer bought the wrong pool' });
    expect(done.status).toBe(200);
    expect(done.body.refund).toMatchObject({ amount: 4.95, refundBytes: 5 * GB, balanceAfter: 50 });
    expect(done.body.detail.customer.balance).toBe(50);
    expect(done.body.detail.plans[0]).toMatchObject({ trafficTotalBytes: 0, trafficUsedBytes: 0 });
    expect(done.body.detail.ledger[0]).toMatchObject({
      kind: 'refund',
      amount: 4.95,
      note: 'Customer bought the wrong pool',
    });
    expect(done.body.detail.orders[0]).toMatchObject({
      orderId,
      refunded: 4.95,
      refundedAt: expect.any(String),
      canRefund: false,
    });
    expect(done.body.detail.audit[0]).toMatchObject({
      action: 'order.refund',
      actorEmail: support.email,
      targetType: 'user',
      targetId: customer.userId,
      before: { balanceCents: 4505, planTotalBytes: 5 * GB },
      after: expect.objectContaining({
        order: orderId,
        balanceCents: 5000,
        amountCents: 495,
        planTotalBytes: 0,
        refundedBytes: 5 * GB,
      }),
      reason: 'Customer bought the wrong pool',
    });
    // The customer sees it in their own dashboard.
    expect(await customerView(customer.token)).toEqual({
      plan: expect.objectContaining({ balance: 0, trafficTotalBytes: 0 }),
      balance: 50,
    });

    const again = await refund(orderId, { reason: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    expect(again.body.error).toMatch(
      new RegExp(`^${orderId} was already refunded \\(\\$4\\.95 on \\d{4}-\\d{2}-\\d{2}\\)$`),
    );
    expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(5000);
  });

  it('refunds only the unused part of a plan partly used, exact to the byte and rounded down to the cent', async () => {
    const customer = await createCustomerWithPlan(server);
    const orderId = await purchaseOf(customer.userId);
    // 1.5 GB and one byte used: 3.5 GB less a byte is left, 69.99999998% of $4.95 = $3.4649…, so $3.46.
    await setUsed(customer.planId, 1.5 * GB + 1);
    const done = await refund(orderId, { reason: 'Unhappy with the speed' });
    expect(done.status).toBe(200);
    expect(done.body.refund).toMatchObject({
      amount: 3.46,
      boughtBytes: 5 * GB,
      refundBytes: 3_758_096_383,
      planTotalBytes: 5 * GB,
      planTotalAfterBytes: 1_610_612_737,
      planUsedBytes: 1_610_612_737,
      balance: 45.05,
      balanceAfter: 48.51,
    });
    expect(done.body.detail.plans[0]).toMatchObject({
      trafficTotalBytes: 1_610_612_737,
      trafficUsedBytes: 1_610_612_737,
    });
    const [order] = await queryRows<{ refunded_cents: string }>(
      server,
      `select refunded_cents::text from orders where user_id = '${customer.userId}' and kind = 'purchase'`,
    );
    expect(order?.refunded_cents).toBe('346');
    expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(4851);
    expect((await customerView(customer.token)).balance).toBe(48.51);
  });

  it("counts the plan's other purchases as used first, and refuses when nothing is left", async () => {
    const customer = await createCustomerWithPlan(server);
    const first = await purchaseOf(customer.userId);
    const bought = await server.request('POST', '/api/subuser/create', {
      token: customer.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
    expect(bought.status).toBe(201);
    const second = await purchaseOf(customer.userId);
    expect(second).not.toBe(first);
    // 4 GB of the 10 used: the second purchase is untouched, the first has 1 GB left after it.
    await setUsed(customer.planId, 4 * GB);
    expect((await refund(second, { reason: 'Bought twice by mistake' })).body.refund).toMatchObject({
      amount: 4.95,
      refundBytes: 5 * GB,
      planTotalAfterBytes: 5 * GB,
    });
    expect((await preview(first)).body).toMatchObject({ amount: 0.99, refundBytes: GB, refusal: null });
    await setUsed(customer.planId, 5 * GB);
    expect((await preview(first)).body).toMatchObject({
      amount: 0,
      refundBytes: 0,
      refusal: { code: 'CONFLICT', message: `Nothing of ${first} is unused: the plan has no traffic left` },
    });
    const refused = await refund(first, { reason: 'All used' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(`Nothing of ${first} is unused: the plan has no traffic left`);
  });

  it('refunds a purchase within 7 days of its completion and refuses one older', async () => {
    const inside = await createCustomerWithPlan(server);
    const insideOrder = await purchaseOf(inside.userId);
    await setCompletedAgo(insideOrder, '6 days 23 hours 59 minutes');
    expect((await refund(insideOrder, { reason: 'Within the window' })).status).toBe(200);

    const outside = await createCustomerWithPlan(server);
    const outsideOrder = await purchaseOf(outside.userId);
    await setCompletedAgo(outsideOrder, '7 days 1 minute');
    const shown = await preview(outsideOrder);
    expect(shown.body.refusal?.message).toMatch(
      new RegExp(
        `^${outsideOrder} was completed on \\d{4}-\\d{2}-\\d{2}, more than 7 days ago: its refund window closed on \\d{4}-\\d{2}-\\d{2}$`,
      ),
    );
    const refused = await refund(outsideOrder, { reason: 'Too late' }, admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: shown.body.refusal?.message, code: 'CONFLICT' });
    expect((await detailOf(outside.userId)).customer.balance).toBe(45.05);
    expect((await detailOf(outside.userId)).orders[0]?.canRefund).toBe(false);
  });

  it('refunds an order once when two refunds race', async () => {
    const customer = await createCustomerWithPlan(server);
    const orderId = await purchaseOf(customer.userId);
    const answers = await Promise.all([
      refund(orderId, { reason: 'Race one' }),
      refund(orderId, { reason: 'Race two' }, admin.token),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const rows = await queryRows(
      server,
      `select 1 from ledger_entries where user_id = '${customer.userId}' and kind = 'refund'`,
    );
    expect(rows).toHaveLength(1);
    expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(5000);
  });

  it('takes a top-up refunded outside the product off the balance, and says how much is left when it is short', async () => {
    const customer = await createCustomerWithPlan(server);
    const topup = await payThroughSandbox(server, customer.token, { provider: 'cryptomus', amount: 30 });
    expect(await pollTopup(server, customer.token, 'cryptomus', topup)).toMatchObject({
      orderStatus: 'completed',
      balance: 75.05,
    });
    expect((await preview(topup)).body).toMatchObject({
      kind: 'topup',
      amount: 30,
      boughtBytes: null,
      refundBytes: null,
      planId: null,
      balance: 75.05,
      balanceAfter: 45.05,
      refundableUntil: null,
      refusal: null,
    });
    const done = await refund(topup, { reason: 'Returned 30 USDT on chain, tx 0xabc' });
    expect(done.status).toBe(200);
    expect(done.body.detail.customer.balance).toBe(45.05);
    expect(done.body.detail.ledger[0]).toMatchObject({ kind: 'refund', amount: -30 });
    expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(4505);

    const spender = await createCustomerWithPlan(server);
    const spent = await payThroughSandbox(server, spender.token, { provider: 'bitcart', amount: 30 });
    expect((await pollTopup(server, spender.token, 'bitcart', spent)).balance).toBe(75.05);
    const bought = await server.request('POST', '/api/subuser/create', {
      token: spender.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 70 } },
    });
    expect(bought.status).toBe(201);
    const short = await refund(spent, { reason: 'Returned on chain' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      error: `The balance is $5.75, less than the $30.00 ${spent} credited: only $5.75 is left to take back. Adjust the balance instead.`,
      code: 'INSUFFICIENT_BALANCE',
    });
    expect((await detailOf(spender.userId)).customer.balance).toBe(5.75);
  });

  it('refuses a top-up not completed', async () => {
    const customer = await createCustomerWithPlan(server);
    const pending = await server.request<{ orderId: string }>('POST', '/api/topup/cryptomus/create-invoice', {
      token: customer.token,
      body: { amount: 10 },
    });
    const refused = await refund(pending.body.orderId, { reason: 'Nothing to refund' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(
      `Only a completed order can be refunded; ${pending.body.orderId} is pending`,
    );
  });

  it('lets support refund up to $100 and only an admin beyond', async () => {
    const customer = await createCustomerWithPlan(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: customer.email, amountCents: 200_00, reason: 'test credit' },
    );
    const bought = await server.request('POST', '/api/subuser/create', {
      token: customer.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 110 } },
    });
    expect(bought.status).toBe(201);
    const orderId = await purchaseOf(customer.userId);
    const fresh = await createUserWithRole(server, 'support');
    expect((await preview(orderId, fresh.token)).body).toMatchObject({
      amount: 108.9,
      needsAdmin: true,
      refusal: null,
    });
    const bySupport = await refund(orderId, { reason: 'Wrong pool' }, fresh.token);
    expect(bySupport.status).toBe(403);
    expect(bySupport.body).toEqual({
      error:
        'Only an admin may do this: support may move at most $100.00 in 24 hours, and you moved $0.00 in that time; an admin must make this change',
      code: 'FORBIDDEN',
    });
    const byAdmin = await refund(orderId, { reason: 'Wrong pool' }, admin.token);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.refund.amount).toBe(108.9);
  });

  it("refuses support a staff account's orders", async () => {
    const staffer = await createUserWithRole(server, 'support');
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: staffer.email, amountCents: 10_00, reason: 'test credit' },
    );
    await server.request('POST', '/api/subuser/create', {
      token: staffer.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
    const orderId = await purchaseOf(staffer.userId);
    const refused = await refund(orderId, { reason: 'Testing' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
  });
});
