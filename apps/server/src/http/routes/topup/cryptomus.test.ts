import { sumLedger } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cryptomusSign, phpJson } from '../../../payments/cryptomus/sign.ts';
import { CRYPTOMUS_SANDBOX_KEY } from '../../../payments/sandbox/cryptomus-sandbox.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

type Invoice = { invoiceUrl: string; url: string; orderId: string; order_id: string; status: string };
type Status = { orderId: string; status: string; orderStatus: string; balance: number };

describe.each(testDatabaseKinds())('Cryptomus top-ups (sandbox) on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  const createInvoice = (token: string, amount: unknown) =>
    server.request<Invoice>('POST', '/api/topup/cryptomus/create-invoice', {
      token,
      body: { amount, paymentMethod: 'usdt' },
    });
  const status = (token: string, orderId: string) =>
    server.request<Status>('GET', `/api/topup/cryptomus/status/${orderId}`, { token });
  /** What a person does on the sandbox checkout page: press one of its buttons. */
  const decide = (
    invoice: Invoice,
    outcome: 'pay' | 'overpay' | 'underpay' | 'underpay-coin' | 'fail' | 'expire',
  ) =>
    fetch(`${invoice.url}/${outcome}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
  const userId = async (email: string) =>
    (await queryRows<{ id: string }>(server, `select id from users where email = '${email}'`))[0]?.id ?? '';
  const invoiceUuid = (invoice: Invoice) => invoice.url.split('/').at(-1) ?? '';

  describe('POST /api/topup/cryptomus/create-invoice', () => {
    it('answers 401 without a token', async () => {
      expect(
        (await server.request('POST', '/api/topup/cryptomus/create-invoice', { body: { amount: 10 } }))
          .status,
      ).toBe(401);
    });

    it('refuses amounts below $5.00, malformed ones and those with more than two decimals', async () => {
      const { token } = await createUserViaApi(server);
      expect((await createInvoice(token, '4.99')).body).toEqual({
        error: 'Minimum top-up amount is $5.00',
        code: 'VALIDATION_FAILED',
      });
      for (const amount of ['abc', '', '5.001', '-10', '1e3']) {
        const { status: code, body } = await createInvoice(token, amount);
        expect(code, amount).toBe(400);
        expect(body).toEqual({ error: 'Please enter a valid amount', code: 'VALIDATION_FAILED' });
      }
    });

    it('opens a pending order and an invoice at the provider with a checkout page', async () => {
      const { token } = await createUserViaApi(server);
      const { status: code, body } = await createInvoice(token, '10.00');
      expect(code).toBe(201);
      expect(body.orderId).toMatch(/^BG-\d{6,}$/);
      expect(body.order_id).toBe(body.orderId);
      expect(body.invoiceUrl).toBe(body.url);
      expect(body.url).toMatch(new RegExp(`^${server.url}/sandbox/cryptomus/pay/[0-9a-f-]{36}$`));
      expect(body.status).toBe('check');
      const page = await fetch(body.url);
      const html = await page.text();
      expect(html).toContain('TEST MODE');
      expect(html).toContain('$10.00');
      const orders = await server.request<{ orders: Array<{ status: string; amount: number }> }>(
        'GET',
        '/api/orders',
        {
          token,
        },
      );
      expect(orders.body.orders).toEqual([
        expect.objectContaining({
          status: 'pending',
          amount: 10,
          paymentMethod: 'Cryptomus',
          invoiceUrl: '',
        }),
      ]);
    });
  });

  describe('paying', () => {
    it('credits the balance once the payer pays, through the signed webhook', async () => {
      const { token, email } = await createUserViaApi(server);
      const invoice = (await createInvoice(token, 10)).body;
      expect((await status(token, invoice.orderId)).body).toMatchObject({
        status: 'check',
        orderStatus: 'pending',
      });
      expect((await decide(invoice, 'pay')).status).toBe(303);
      const after = await status(token, invoice.orderId);
      expect(after.body).toEqual({
        orderId: invoice.orderId,
        status: 'completed',
        orderStatus: 'completed',
        balance: 10,
        amount: 10,
        credited: 10,
      });
      expect(await sumLedger(server.database.db, { userId: await userId(email) })).toBe(1000);
      const events = await queryRows(
        server,
        `select is_signature_valid, claimed_status, outcome from payment_events where provider_invoice_id = '${invoiceUuid(invoice)}'`,
      );
      expect(events).toEqual([{ is_signature_valid: true, claimed_status: 'paid', outcome: 'credited' }]);
      const orders = await server.request<{ orders: Array<{ status: string; invoiceUrl: string }> }>(
        'GET',
        '/api/orders',
        {
          token,
        },
      );
      expect(orders.body.orders[0]?.status).toBe('completed');
      expect(orders.body.orders[0]?.invoiceUrl).toContain(invoice.orderId);
    });

    it('credits once whatever number of duplicate webhooks and polls race each other', async () => {
      const { token, email } = await createUserViaApi(server);
      const invoice = (await createInvoice(token, '25.50')).body;
      // Pay at the provider without letting its webhook through first: re-sign the same body it sends.
      const [order] = await queryRows<{ id: string }>(
        server,
        `select id from orders where provider_invoice_id = '${invoiceUuid(invoice)}'`,
      );
      const payload = {
        type: 'payment',
        uuid: invoiceUuid(invoice),
        order_id: order?.id,
        amount: '25.50',
        status: 'paid',
        is_final: true,
      };
      const body = JSON.stringify({
        ...payload,
        sign: cryptomusSign(phpJson(payload), CRYPTOMUS_SANDBOX_KEY),
      });
      await decide(invoice, 'pay');
      const webhooks = Array.from({ length: 20 }, () =>
        fetch(`${server.url}/api/topup/cryptomus/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }),
      );
      const polls = Array.from({ length: 20 }, () => status(token, invoice.orderId));
      const results = await Promise.all([...webhooks, ...polls]);
      expect(results.every((result) => result.status === 200)).toBe(true);
      expect(await sumLedger(server.database.db, { userId: await userId(email) })).toBe(2550);
      const credits = await queryRows(server, `select 1 from ledger_entries where order_id = '${order?.id}'`);
      expect(credits).toHaveLength(1);
      expect((await server.request('GET', '/api/account/balance', { token })).body).toEqual({
        balance: 25.5,
        balanceCents: 2550,
      });
    });

    it('credits nothing for a forged signature, and nothing for a signed claim the provider denies', async () => {
      const { token, email } = await createUserViaApi(server);
      const invoice = (await createInvoice(token, 50)).body;
      const [order] = await queryRows<{ id: string }>(
        server,
        `select id from orders where provider_invoice_id = '${invoiceUuid(invoice)}'`,
      );
      const payload = {
        type: 'payment',
        uuid: invoiceUuid(invoice),
        order_id: order?.id,
        amount: '50.00',
        status: 'paid',
      };
      const forged = await fetch(`${server.url}/api/topup/cryptomus/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...payload, sign: cryptomusSign(phpJson(payload), 'not-the-key') }),
      });
      expect(forged.status).toBe(400);
      // Correctly signed, but the invoice is still unpaid at the provider: the re-read decides.
      const signedLie = await fetch(`${server.url}/api/topup/cryptomus/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...payload, sign: cryptomusSign(phpJson(payload), CRYPTOMUS_SANDBOX_KEY) }),
      });
      expect(signedLie.status).toBe(200);
      expect(await sumLedger(server.database.db, { userId: await userId(email) })).toBe(0);
      expect((await status(token, invoice.orderId)).body).toMatchObject({
        status: 'check',
        orderStatus: 'pending',
        balance: 0,
      });
      const events = await queryRows(
        server,
        `select is_signature_valid, outcome from payment_events where provider_invoice_id = '${invoiceUuid(invoice)}' order by id`,
      );
      expect(events).toEqual([
        { is_signature_valid: false, outcome: 'rejected: bad signature' },
        { is_signature_valid: true, outcome: 'pending' },
      ]);
    });

    it('credits nothing for failed and expired invoices, and marks their orders failed', async () => {
      const { token } = await createUserViaApi(server);
      for (const outcome of ['fail', 'expire'] as const) {
        const invoice = (await createInvoice(token, 20)).body;
        await decide(invoice, outcome);
        const after = await status(token, invoice.orderId);
        expect(after.body).toMatchObject({
          status: outcome === 'fail' ? 'failed' : 'expired',
          orderStatus: 'failed',
          balance: 0,
        });
      }
    });

    it('credits the invoice amount when paid over, and what arrived when paid short', async () => {
      const { token } = await createUserViaApi(server);
      const over = (await createInvoice(token, 20)).body;
      await decide(over, 'overpay');
      expect((await status(token, over.orderId)).body).toMatchObject({ status: 'completed', balance: 20 });
      const short = (await createInvoice(token, 30)).body;
      await decide(short, 'underpay');
      expect((await status(token, short.orderId)).body).toMatchObject({
        status: 'completed',
        orderStatus: 'completed',
        balance: 35,
        amount: 30,
        credited: 15,
      });
      const orders = await server.request<{
        orders: Array<{ amount: number; creditedAmount: number | null }>;
      }>('GET', '/api/orders', { token });
      expect(orders.body.orders.map(({ amount, creditedAmount }) => ({ amount, creditedAmount }))).toEqual([
        { amount: 30, creditedAmount: 15 },
        { amount: 20, creditedAmount: 20 },
      ]);
    });

    it('holds a partial payment in a coin with no USD amount for review, crediting nothing', async () => {
      const { token, email } = await createUserViaApi(server);
      const warn = vi.spyOn(server.app.log, 'warn');
      const invoice = (await createInvoice(token, 40)).body;
      await decide(invoice, 'underpay-coin');
      const [order] = await queryRows<{ id: string; status: string }>(
        server,
        `select id, status from orders where provider_invoice_id = '${invoiceUuid(invoice)}'`,
      );
      expect(order?.status).toBe('review');
      expect((await status(token, invoice.orderId)).body).toEqual({
        orderId: invoice.orderId,
        status: 'review',
        orderStatus: 'review',
        balance: 0,
        amount: 40,
        credited: 0,
      });
      expect(await sumLedger(server.database.db, { userId: await userId(email) })).toBe(0);
      const orders = await server.request<{ orders: Array<{ status: string; invoiceUrl: string }> }>(
        'GET',
        '/api/orders',
        { token },
      );
      expect(orders.body.orders[0]).toMatchObject({ status: 'review', invoiceUrl: '' });
      // Logged once for the operator, with the order and what the payer sent in their coin.
      const held = warn.mock.calls.filter(
        ([fields]) => (fields as { orderId?: string }).orderId === order?.id,
      );
      expect(held).toHaveLength(1);
      expect(held[0]?.[0]).toMatchObject({ payerPaid: { currency: 'BTC', amount: '0.00033333' } });
      warn.mockRestore();
      const events = await queryRows(
        server,
        `select claimed_status, outcome from payment_events where provider_invoice_id = '${invoiceUuid(invoice)}'`,
      );
      expect(events).toEqual([{ claimed_status: 'wrong_amount', outcome: 'review' }]);
    });

    it("never shows one user another user's top-up", async () => {
      const alice = await createUserViaApi(server);
      const bob = await createUserViaApi(server);
      const invoice = (await createInvoice(alice.token, 10)).body;
      const peek = await status(bob.token, invoice.orderId);
      expect(peek.status).toBe(404);
      expect((await status(bob.token, 'BG-garbage')).status).toBe(404);
    });
  });
});
