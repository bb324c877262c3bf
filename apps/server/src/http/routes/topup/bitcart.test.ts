import { sumLedger } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

type Invoice = { id: string; modal_script_url: string; invoiceUrl: string; orderId: string; status: string };
type Status = { orderId: string; status: string; orderStatus: string; balance: number };

describe.each(testDatabaseKinds())('Bitcart top-ups (sandbox) on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  const createInvoice = (token: string, amount: unknown) =>
    server.request<Invoice>('POST', '/api/topup/bitcart/create-invoice', { token, body: { amount } });
  const status = (token: string, orderId: string) =>
    server.request<Status>('GET', `/api/topup/bitcart/status?order_id=${orderId}&remote=1`, { token });
  const decide = (invoice: Invoice, outcome: 'pay' | 'overpay' | 'underpay' | 'fail' | 'expire') =>
    fetch(`${invoice.invoiceUrl}/${outcome}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
  const ipn = (body: unknown) =>
    fetch(`${server.url}/api/topup/bitcart/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const userId = async (email: string) =>
    (await queryRows<{ id: string }>(server, `select id from users where email = '${email}'`))[0]?.id ?? '';

  describe('POST /api/topup/bitcart/create-invoice', () => {
    it('answers 401 without a token', async () => {
      expect(
        (await server.request('POST', '/api/topup/bitcart/create-invoice', { body: { amount: 10 } })).status,
      ).toBe(401);
    });

    it('refuses amounts below $5.00', async () => {
      const { token } = await createUserViaApi(server);
      expect((await createInvoice(token, 4)).body).toEqual({
        error: 'Minimum top-up amount is $5.00',
        code: 'VALIDATION_FAILED',
      });
    });

    it('answers the invoice id, the modal script and the checkout page', async () => {
      const { token } = await createUserViaApi(server);
      const { status: code, body } = await createInvoice(token, '12.34');
      expect(code).toBe(201);
      expect(body.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(body.orderId).toMatch(/^BG-\d{6,}$/);
      expect(body.status).toBe('PENDING');
      expect(body.modal_script_url).toBe(`${server.url}/sandbox/bitcart/admin/modal/bitcart.js`);
      expect(body.invoiceUrl).toBe(`${server.url}/sandbox/bitcart/admin/i/${body.id}`);
      const script = await (await fetch(body.modal_script_url)).text();
      expect(script).toContain('showInvoice');
      const page = await (await fetch(body.invoiceUrl)).text();
      expect(page).toContain('TEST MODE');
      expect(page).toContain('$12.34');
    });
  });

  describe('paying', () => {
    it('credits the balance after the IPN, re-reading the invoice from Bitcart', async () => {
      const { token, email } = await createUserViaApi(server);
      const invoice = (await createInvoice(token, 15)).body;
      expect((await status(token, invoice.orderId)).body).toMatchObject({
        status: 'PENDING',
        orderStatus: 'pending',
      });
      await decide(invoice, 'pay');
      const after = await status(token, invoice.orderId);
      expect(after.body).toEqual({
        orderId: invoice.orderId,
        status: 'COMPLETED',
        orderStatus: 'completed',
        balance: 15,
        amount: 15,
        credited: 15,
      });
      expect(await sumLedger(server.database.db, { userId: await userId(email) })).toBe(1500);
      const events = await queryRows(
        server,
        `select is_signature_valid, claimed_status, outcome from payment_events where provider_invoice_id = '${invoice.id}'`,
      );
      expect(events).toEqual([{ is_signature_valid: null, claimed_status: 'complete', outcome: 'credited' }]);
    });

    it('credits once whatever number of duplicate IPNs and polls race each other', async () => {
      const { token, email } = await createUserViaApi(server);
      const invoice = (await createInvoice(token, 40)).body;
      await decide(invoice, 'pay');
      const results = await Promise.all([
        ...Array.from({ length: 20 }, () => ipn({ id: invoice.id, status: 'complete' })),
        ...Array.from({ length: 20 }, () => status(token, invoice.orderId)),
      ]);
      expect(results.every((result) => result.status === 200)).toBe(true);
      expect(await sumLedger(server.database.db, { userId: await userId(email) })).toBe(4000);
    });

    it('credits nothing for an IPN that claims a payment Bitcart does not confirm, or names no invoice of ours', async () => {
      const { token, email } = await createUserViaApi(server);
      const invoice = (await createInvoice(token, 30)).body;
      expect((await ipn({ id: invoice.id, status: 'complete' })).status).toBe(200);
      expect((await ipn({ id: 'not-an-invoice-of-ours', status: 'complete' })).status).toBe(200);
      expect((await ipn('garbage')).status).toBe(200);
      expect(await sumLedger(server.database.db, { userId: await userId(email) })).toBe(0);
      expect((await status(token, invoice.orderId)).body).toMatchObject({ status: 'PENDING', balance: 0 });
      const outcomes = await queryRows<{ outcome: string }>(
        server,
        "select outcome from payment_events where provider = 'bitcart' and provider_invoice_id is distinct from null order by id desc limit 2",
      );
      expect(outcomes.map((row) => row.outcome)).toEqual(['ignored: unknown invoice', 'pending']);
    });

    it('fails invalid and expired invoices without credit', async () => {
      const { token } = await createUserViaApi(server);
      const invalid = (await createInvoice(token, 10)).body;
      await decide(invalid, 'fail');
      expect((await status(token, invalid.orderId)).body).toMatchObject({
        status: 'FAILED',
        orderStatus: 'failed',
      });
      const expired = (await createInvoice(token, 10)).body;
      await decide(expired, 'expire');
      expect((await status(token, expired.orderId)).body).toMatchObject({
        status: 'EXPIRED',
        orderStatus: 'failed',
        balance: 0,
      });
    });

    it('credits the price when paid over, and what arrived when a partial payment expires', async () => {
      const { token } = await createUserViaApi(server);
      const over = (await createInvoice(token, 10)).body;
      await decide(over, 'overpay');
      expect((await status(token, over.orderId)).body).toMatchObject({ status: 'COMPLETED', balance: 10 });
      const partial = (await createInvoice(token, 25)).body;
      await decide(partial, 'underpay');
      expect((await status(token, partial.orderId)).body).toMatchObject({
        status: 'COMPLETED',
        balance: 22.5,
        amount: 25,
        credited: 12.5,
      });
      // Orders says what was invoiced and what was credited.
      const orders = await server.request<{
        orders: Array<{ amount: number; creditedAmount: number | null }>;
      }>('GET', '/api/orders', { token });
      expect(orders.body.orders.map(({ amount, creditedAmount }) => ({ amount, creditedAmount }))).toEqual([
        { amount: 25, creditedAmount: 12.5 },
        { amount: 10, creditedAmount: 10 },
      ]);
    });

    it("never shows one user another user's top-up", async () => {
      const alice = await createUserViaApi(server);
      const bob = await createUserViaApi(server);
      const invoice = (await createInvoice(alice.token, 10)).body;
      expect((await status(bob.token, invoice.orderId)).status).toBe(404);
    });
  });
});
