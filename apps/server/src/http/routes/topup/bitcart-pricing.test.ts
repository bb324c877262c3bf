import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentDetailResponse } from '@bytegate/contracts/admin-payments';
import { sumLedger } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Bitcart payments nobody can price, and invoices of another store (issue 28, item 7), against a fake
// Bitcart speaking its Merchants API over HTTP: POST /invoices/order_id/{id} opens an invoice, GET
// /invoices/{id} reads it (a DisplayInvoice: store_id, price, status, exception_status, sent_amount,
// payment_id and payments[] with each method's id, currency and USD rate).

const STORE = 'our-store';
const TOKEN = 'bitcart-token';

type FakeInvoice = Record<string, unknown> & { id: string };

/** A Bitcart that keeps invoices in memory; a test rewrites what an invoice says next. */
async function startFakeBitcart() {
  const invoices = new Map<string, FakeInvoice>();
  let counter = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== `Bearer ${TOKEN}`) {
        return send(401, { detail: 'Could not validate credentials' });
      }
      const url = request.url ?? '';
      if (request.method === 'POST' && url.startsWith('/invoices/order_id/')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        counter += 1;
        const invoice: FakeInvoice = {
          id: `inv${counter}`,
          store_id: body.store_id,
          order_id: body.order_id,
          price: body.price,
          currency: 'USD',
          status: 'pending',
          exception_status: 'none',
          sent_amount: '0',
          payment_id: null,
          created: new Date().toISOString(),
          expiration_seconds: 900,
          payments: [
            { id: 'm-btc', currency: 'btc', rate: '100000.00' },
            { id: 'm-ltc', currency: 'ltc', rate: '1000.00' },
          ],
        };
        invoices.set(invoice.id, invoice);
        return send(200, invoice);
      }
      const read = /^\/invoices\/([^/?]+)$/.exec(url);
      const invoice = read?.[1] ? invoices.get(read[1]) : undefined;
      if (request.method === 'GET' && invoice) {
        return send(200, invoice);
      }
      return send(404, { detail: 'Object not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    invoices,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDatabaseKinds())('Bitcart payments we cannot price or that are not ours, on %s', (kind) => {
  let server: TestServer;
  let bitcart: Awaited<ReturnType<typeof startFakeBitcart>>;
  let admin: Awaited<ReturnType<typeof createUserWithRole>>;
  beforeAll(async () => {
    bitcart = await startFakeBitcart();
    server = await startTestServer(kind, {
      bitcart: { apiUrl: bitcart.url, adminUrl: `${bitcart.url}/admin`, token: TOKEN, storeId: STORE },
      paymentsSandbox: 'off',
    });
    admin = await createUserWithRole(server, 'admin');
  });
  afterAll(async () => {
    await server?.close();
    await bitcart?.close();
  });

  /** A customer's $50 Bitcart top-up: its order (BG-…), the fake's invoice and the customer. */
  async function openTopup() {
    const customer = await createUserWithRole(server, 'customer');
    const created = await server.request<{ orderId: string; id: string }>(
      'POST',
      '/api/topup/bitcart/create-invoice',
      { token: customer.token, body: { amount: 50 } },
    );
    expect(created.status).toBe(201);
    const invoice = bitcart.invoices.get(created.body.id);
    if (!invoice) {
      throw new Error('the fake Bitcart has no such invoice');
    }
    return { customer, orderId: created.body.orderId, invoice };
  }
  const poll = (token: string, orderId: string) =>
    server.request<{ orderStatus: string; balance: number }>(
      'GET',
      `/api/topup/bitcart/status?order_id=${orderId}&remote=1`,
      { token },
    );
  const detailOf = (orderId: string) =>
    server.request<PaymentDetailResponse>('GET', `/api/admin/payments/${orderId}`, { token: admin.token });

  it("holds for review a partial payment whose payment_id names none of the invoice's methods", async () => {
    const { customer, orderId, invoice } = await openTopup();
    // 1 coin arrived through a method the invoice does not list: at the first method's BTC rate it would
    // be $100,000, at the LTC one $1,000, either way more than the $50 invoice.
    Object.assign(invoice, {
      status: 'expired',
      exception_status: 'paid_partial',
      sent_amount: '1',
      payment_id: 'm-gone',
    });
    const polled = await poll(customer.token, orderId);
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({ orderStatus: 'review', balance: 0 });
    expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(0);
    const detail = await detailOf(orderId);
    expect(detail.body.payment).toMatchObject({ status: 'review', credited: 0 });
    expect(JSON.stringify(detail.body)).toContain('unknown coin (payment_id m-gone)');

    // Staff approve what they found arrived, through the review flow.
    const approved = await server.request('POST', `/api/admin/payments/${orderId}/approve`, {
      token: admin.token,
      body: { amount: '20', reason: 'Found 0.02 LTC on chain, $20.00' },
    });
    expect(approved.status).toBe(200);
    expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(20_00);
  });

  it('prices a partial payment at the rate of the method payment_id names', async () => {
    const { customer, orderId, invoice } = await openTopup();
    Object.assign(invoice, {
      status: 'expired',
      exception_status: 'paid_partial',
      sent_amount: '0.0125',
      payment_id: 'm-ltc',
    });
    expect((await poll(customer.token, orderId)).body).toMatchObject({
      orderStatus: 'completed',
      balance: 12.5,
    });
    expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(12_50);
  });

  it('credits nothing for an invoice of another store, or of none, whatever it says was paid', async () => {
    for (const storeId of ['their-store', null]) {
      const { customer, orderId, invoice } = await openTopup();
      Object.assign(invoice, {
        store_id: storeId,
        status: 'complete',
        sent_amount: '0.0005',
        payment_id: 'm-btc',
      });
      expect((await poll(customer.token, orderId)).body).toMatchObject({
        orderStatus: 'pending',
        balance: 0,
      });
      const ipn = await fetch(`${server.url}/api/topup/bitcart/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: invoice.id, status: 'complete' }),
      });
      expect(ipn.status).toBe(200);
      const [event] = await queryRows<{ outcome: string }>(
        server,
        `select outcome from payment_events where provider_invoice_id = '${invoice.id}'`,
      );
      expect(event?.outcome).toBe(
        `error: Bitcart answered invoice ${invoice.id} of store ${storeId ?? '(none)'}, not of ours (${STORE})`,
      );
      const check = await server.request<{ error?: string }>('POST', `/api/admin/payments/${orderId}/check`, {
        token: admin.token,
      });
      expect(check.status).toBeGreaterThanOrEqual(400);
      expect(await sumLedger(server.database.db, { userId: customer.userId })).toBe(0);
      expect((await detailOf(orderId)).body.payment).toMatchObject({ status: 'pending', credited: 0 });
    }
  });
});
