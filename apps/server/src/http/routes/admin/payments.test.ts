import type {
  CheckTopupResponse,
  PaymentDetailResponse,
  PaymentsResponse,
} from '@bytegate/contracts/admin-payments';
import { createOrder, sumLedger } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payThroughSandbox } from '../../../testing/payments.ts';
import { createCustomerWithPlan, createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Staff = Awaited<ReturnType<typeof createUserWithRole>>;
type Refusal = { error?: string; code?: string };

describe.each(testDatabaseKinds())('the payments page on %s', (kind) => {
  let server: TestServer;
  let support: Staff;
  let admin: Staff;
  beforeAll(async () => {
    // A public URL nobody answers on: the sandboxes' webhooks are all lost, as a real one can be, so
    // only a poll, the reconcile job or "check with provider" settles a top-up here.
    server = await startTestServer(kind, { publicUrl: 'http://127.0.0.1:9' });
    support = await createUserWithRole(server, 'support');
    admin = await createUserWithRole(server, 'admin');
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (query: string) => {
    const answer = await server.request<PaymentsResponse>('GET', `/api/admin/payments?${query}`, {
      token: support.token,
    });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const check = (orderId: string, token = support.token) =>
    server.request<CheckTopupResponse & Refusal>('POST', `/api/admin/payments/${orderId}/check`, { token });
  const decide = (orderId: string, decision: 'approve' | 'reject', body: object, token = support.token) =>
    server.request<PaymentDetailResponse & Refusal>('POST', `/api/admin/payments/${orderId}/${decision}`, {
      token,
      body,
    });
  const topupLedgerRows = async (userId: string) =>
    queryRows(server, `select 1 from ledger_entries where user_id = '${userId}' and kind = 'topup'`);
  const auditOf = (action: string, userId: string) =>
    queryRows<{
      actor_email: string;
      before: unknown;
      after: Record<string, unknown>;
      reason: string | null;
    }>(
      server,
      `select actor_email, before, after, reason from audit_log where action = '${action}' and target_id = '${userId}'`,
    );

  describe('GET /api/admin/payments', () => {
    it("lists every customer's orders with provider, status and webhooks, filtered", async () => {
      const customer = await createCustomerWithPlan(server);
      const pending = await payThroughSandbox(server, customer.token, {
        provider: 'cryptomus',
        amount: 10,
        outcome: 'fail',
      });
      const paid = await payThroughSandbox(server, customer.token, { provider: 'bitcart', amount: 25 });
      const bitcart = (await list(`q=${paid}`)).payments[0];
      expect(bitcart).toMatchObject({
        orderId: paid,
        kind: 'topup',
        userId: customer.userId,
        email: customer.email,
        provider: 'bitcart',
        status: 'pending',
        amount: 25,
        credited: 0,
        eventCount: 0,
        review: null,
      });
      // The IPN arrives (Bitcart signs nothing): stored, then the invoice is re-read and credited.
      const ipn = await server.request('POST', '/api/topup/bitcart/webhook', {
        body: { id: bitcart?.invoiceId, status: 'complete' },
      });
      expect(ipn.status).toBe(200);

      const mine = await list(`q=${encodeURIComponent(customer.email)}`);
      expect(mine.payments.map((row) => [row.orderId, row.kind, row.provider, row.status])).toEqual([
        [paid, 'topup', 'bitcart', 'completed'],
        [pending, 'topup', 'cryptomus', 'pending'],
        [expect.stringMatching(/^BG-/), 'purchase', 'balance', 'completed'],
      ]);
      expect(mine.pagination).toEqual({ currentPage: 1, totalPages: 1, totalItems: 3, itemsPerPage: 25 });
      const email = encodeURIComponent(customer.email);
      expect((await list(`q=${email}&provider=cryptomus`)).payments.map((row) => row.orderId)).toEqual([
        pending,
      ]);
      expect((await list(`q=${email}&kind=purchase`)).payments).toHaveLength(1);
      expect((await list(`q=${email}&status=pending`)).payments.map((row) => row.orderId)).toEqual([pending]);
      expect((await list(`q=${pending.slice(3)}`)).payments.map((row) => row.orderId)).toEqual([pending]);
      expect((await list(`q=${bitcart?.invoiceId}`)).payments.map((row) => row.orderId)).toEqual([paid]);
      expect((await list('q=nobody-at-all@example.com')).payments).toEqual([]);

      const detail = await server.request<PaymentDetailResponse>('GET', `/api/admin/payments/${paid}`, {
        token: support.token,
      });
      expect(detail.body.payment).toMatchObject({ status: 'completed', credited: 25, eventCount: 1 });
      expect(detail.body.events).toEqual([
        {
          id: expect.any(Number),
          receivedAt: expect.any(String),
          sourceIp: '127.0.0.1',
          isSignatureValid: null,
          claimedStatus: 'complete',
          outcome: 'credited',
          rawBody: expect.stringContaining(bitcart?.invoiceId ?? 'x'),
        },
      ]);
    });

    it('refuses a filter that is not one', async () => {
      const answer = await server.request('GET', '/api/admin/payments?status=lost', { token: support.token });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      const missing = await server.request('GET', '/api/admin/payments/BG-999999', { token: support.token });
      expect(missing.body).toEqual({ error: 'No order BG-999999', code: 'NOT_FOUND' });
    });
  });

  describe('POST /api/admin/payments/:orderId/check', () => {
    it('credits a paid invoice whose webhook was lost, once, and says what the provider said', async () => {
      const customer = await createCustomerWithPlan(server);
      const unpaid = await server.request<{ orderId: string }>(
        'POST',
        '/api/topup/cryptomus/create-invoice',
        {
          token: customer.token,
          body: { amount: 12 },
        },
      );
      const waiting = await check(unpaid.body.orderId);
      expect(waiting.status).toBe(200);
      expect(waiting.body).toMatchObject({
        provider: { status: 'check', outcome: 'pending', amount: 12, paid: null, payerPaid: null },
        result: 'pending',
        payment: { status: 'pending', providerStatus: 'check' },
      });

      const paid = await payThroughSandbox(server, customer.token, { provider: 'cryptomus', amount: 12 });
      const checks = await Promise.all([check(paid), check(paid, admin.token)]);
      expect(checks.map((answer) => answer.body.result).sort()).toEqual(['already-settled', 'credited']);
      expect(checks[0]?.body.provider).toEqual({
        status: 'paid',
        outcome: 'success',
        amount: 12,
        paid: 12,
        payerPaid: { currency: 'USDT', amount: '12.00000000' },
      });
      expect(checks[0]?.body.payment).toMatchObject({ orderId: paid, status: 'completed', credited: 12 });
      expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(45_05 + 12_00);
      expect(await topupLedgerRows(customer.userId)).toHaveLength(1);
      // The check that changed the order is audited; the one that changed nothing and the waiting one are not.
      const audit = await auditOf('topup.check', customer.userId);
      expect(audit).toEqual([
        {
          actor_email: expect.stringMatching(new RegExp(`^(${support.email}|${admin.email})$`)),
          before: { status: 'pending', providerStatus: 'check' },
          after: expect.objectContaining({ order: paid, status: 'completed', providerStatus: 'paid' }),
          reason: null,
        },
      ]);

      const viaBitcart = await payThroughSandbox(server, customer.token, { provider: 'bitcart', amount: 5 });
      expect((await check(viaBitcart)).body).toMatchObject({
        provider: { status: 'complete', outcome: 'success', amount: 5 },
        result: 'credited',
      });
      expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(45_05 + 17_00);
    });

    it('refuses a purchase, which no provider knows', async () => {
      const customer = await createCustomerWithPlan(server);
      const [purchase] = (await list(`q=${encodeURIComponent(customer.email)}`)).payments;
      const refused = await check(purchase?.orderId ?? '');
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        error: `${purchase?.orderId} was paid from the balance: there is no provider to ask`,
        code: 'CONFLICT',
      });
    });
  });

  describe('the review queue: approve and reject', () => {
    /** A $`amount` Cryptomus top-up paid half in BTC with no USD figure, held for review by a check. */
    async function heldForReview(token: string, amount: number): Promise<string> {
      const orderId = await payThroughSandbox(server, token, {
        provider: 'cryptomus',
        amount,
        outcome: 'underpay-coin',
      });
      const checked = await check(orderId);
      expect(checked.body).toMatchObject({
        provider: { status: 'wrong_amount', outcome: 'partial', amount, paid: null },
        result: 'review',
        payment: { status: 'review' },
      });
      return orderId;
    }

    it('approves a held top-up with the amount staff enter, crediting it exactly once', async () => {
      const customer = await createCustomerWithPlan(server);
      const orderId = await heldForReview(customer.token, 40);
      const queue = await list('status=review');
      expect(queue.payments.find((row) => row.orderId === orderId)).toMatchObject({
        status: 'review',
        providerStatus: 'wrong_amount',
        review: {
          reason: 'partial payment without a USD amount',
          payerPaid: { currency: 'BTC', amount: '0.00033333' },
        },
      });

      expect((await decide(orderId, 'approve', { amount: '19.99' })).body).toEqual({
        error: 'Reason is required',
        code: 'VALIDATION_FAILED',
      });
      expect((await decide(orderId, 'approve', { amount: '0', reason: 'Checked' })).body).toEqual({
        error: "Amount must be dollars like '12.50', more than zero",
        code: 'VALIDATION_FAILED',
      });
      expect((await decide(orderId, 'approve', { amount: '40.01', reason: 'Checked' })).body).toEqual({
        error:
          "The amount must be at most the invoice's $40.00; credit an overpayment with a balance adjustment",
        code: 'VALIDATION_FAILED',
      });

      const reason = '0.00033333 BTC arrived, $19.99 at the rate of the day (Cryptomus dashboard)';
      const answers = await Promise.all([
        decide(orderId, 'approve', { amount: '19.99', reason }),
        decide(orderId, 'approve', { amount: '19.99', reason }, admin.token),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const approved = answers.find((answer) => answer.status === 200);
      expect(approved?.body.payment).toMatchObject({ status: 'completed', credited: 19.99, review: null });
      expect(answers.find((answer) => answer.status === 409)?.body.error).toBe(
        `${orderId} is not held for review: it is completed`,
      );
      expect(await topupLedgerRows(customer.userId)).toHaveLength(1);
      expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(45_05 + 19_99);
      const audit = await auditOf('topup.approve', customer.userId);
      expect(audit).toEqual([
        expect.objectContaining({
          before: { status: 'review', balanceCents: 45_05 },
          after: expect.objectContaining({ status: 'completed', balanceCents: 65_04, amountCents: 19_99 }),
          reason,
        }),
      ]);
      // The provider is asked again later: a settled order stays as it is.
      expect((await check(orderId)).body.result).toBe('already-settled');
      expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(65_04);
    });

    it('lets support credit at most $100, and only an admin beyond', async () => {
      const customer = await createCustomerWithPlan(server);
      const orderId = await heldForReview(customer.token, 150);
      const fresh = await createUserWithRole(server, 'support');
      const bySupport = await decide(
        orderId,
        'approve',
        { amount: '120', reason: 'Arrived in full' },
        fresh.token,
      );
      expect(bySupport.status).toBe(403);
      expect(bySupport.body).toEqual({
        error:
          'Only an admin may do this: support may move at most $100.00 in 24 hours, and you moved $0.00 in that time; an admin must make this change',
        code: 'FORBIDDEN',
      });
      const byAdmin = await decide(
        orderId,
        'approve',
        { amount: '120', reason: 'Arrived in full' },
        admin.token,
      );
      expect(byAdmin.status).toBe(200);
      expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(45_05 + 120_00);
    });

    it('rejects a held top-up: it fails, nothing is credited, and it cannot be approved after', async () => {
      const customer = await createCustomerWithPlan(server);
      const orderId = await heldForReview(customer.token, 30);
      expect((await decide(orderId, 'reject', {})).body.code).toBe('VALIDATION_FAILED');
      const rejected = await decide(orderId, 'reject', { reason: 'Nothing arrived on chain' });
      expect(rejected.status).toBe(200);
      expect(rejected.body.payment).toMatchObject({ status: 'failed', credited: 0 });
      expect(await auditOf('topup.reject', customer.userId)).toEqual([
        expect.objectContaining({
          before: { status: 'review' },
          reason: 'Nothing arrived on chain',
        }),
      ]);
      const late = await decide(orderId, 'approve', { amount: '5', reason: 'Changed my mind' });
      expect(late.status).toBe(409);
      expect(late.body.error).toBe(`${orderId} is not held for review: it is failed`);
      expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(45_05);
      const orders = await server.request<{ orders: Array<{ orderId: string; status: string }> }>(
        'GET',
        '/api/orders',
        { token: customer.token },
      );
      expect(orders.body.orders.find((order) => order.orderId === orderId)?.status).toBe('failed');
    });
  });
});

describe.each(testDatabaseKinds())('"check with provider" when the provider is not there, on %s', (kind) => {
  let server: TestServer;
  let support: Staff;
  beforeAll(async () => {
    // A live Cryptomus nobody answers for, and no Bitcart at all.
    server = await startTestServer(kind, {
      cryptomus: { merchantId: 'merchant', apiKey: 'key', apiUrl: 'http://127.0.0.1:9' },
      paymentsSandbox: 'off',
    });
    support = await createUserWithRole(server, 'support');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 503 and changes nothing', async () => {
    const customer = await createUserWithRole(server, 'customer');
    const labels: Record<string, string> = {};
    for (const paymentMethod of ['cryptomus', 'bitcart'] as const) {
      const order = await createOrder(server.database.db, {
        userId: customer.userId,
        kind: 'topup',
        description: 'Top-up',
        amountCents: 10_00,
        paymentMethod,
        status: 'pending',
        providerInvoiceId: `inv-${paymentMethod}`,
      });
      labels[paymentMethod] = `BG-${100000 + order.number}`;
    }
    const unreachable = await server.request('POST', `/api/admin/payments/${labels.cryptomus}/check`, {
      token: support.token,
    });
    expect(unreachable.status).toBe(503);
    expect(unreachable.body).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(String(unreachable.body.error)).toMatch(
      /^The check with Cryptomus failed: Cryptomus could not be reached/,
    );
    const unavailable = await server.request('POST', `/api/admin/payments/${labels.bitcart}/check`, {
      token: support.token,
    });
    expect(unavailable.status).toBe(503);
    expect(unavailable.body).toEqual({
      error: 'Payments with Bitcart are not available right now. Please use another payment method.',
      code: 'PAYMENT_PROVIDER_UNAVAILABLE',
    });
    expect(await queryRows(server, `select status from orders where user_id = '${customer.userId}'`)).toEqual(
      [{ status: 'pending' }, { status: 'pending' }],
    );
  });
});
