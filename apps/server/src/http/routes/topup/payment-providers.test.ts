import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

// A real provider's settings; nothing is ever sent to it in these tests.
const realCryptomus = { merchantId: 'merchant', apiKey: 'real-payment-key', apiUrl: 'http://127.0.0.1:9' };

describe.each(testDatabaseKinds())('payment providers and their sandboxes on %s', (kind) => {
  describe('PAYMENTS_SANDBOX=auto beside a real Cryptomus', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { cryptomus: realCryptomus, paymentsSandbox: 'auto' });
    });
    afterAll(async () => {
      await server.close();
    });

    it('tells the web app that nothing is simulated and that Bitcart is unavailable', async () => {
      const { body } = await server.request('GET', '/api/config');
      expect(body).toMatchObject({
        paymentsSandbox: false,
        paymentProviders: { cryptomus: 'live', bitcart: 'unavailable' },
      });
    });

    it('refuses a Bitcart invoice with a coded error, and opens no order', async () => {
      const { token } = await createUserViaApi(server);
      const { status, body } = await server.request('POST', '/api/topup/bitcart/create-invoice', {
        token,
        body: { amount: 10 },
      });
      expect(status).toBe(503);
      expect(body).toEqual({
        error: 'Payments with Bitcart are not available right now. Please use another payment method.',
        code: 'PAYMENT_PROVIDER_UNAVAILABLE',
      });
      const orders = await server.request<{ orders: unknown[] }>('GET', '/api/orders', { token });
      expect(orders.body.orders).toEqual([]);
      const polled = await server.request('GET', '/api/topup/bitcart/status?order_id=BG-100001', { token });
      expect(polled.body).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE' });
    });

    it('mounts no sandbox: nobody can pay for free through one', async () => {
      expect((await fetch(`${server.url}/sandbox/bitcart/admin/modal/bitcart.js`)).status).toBe(404);
      const create = await fetch(`${server.url}/sandbox/bitcart/api/invoices/order_id/x`, {
        method: 'POST',
        headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
        body: JSON.stringify({ store_id: 'sandbox-store', price: '10.00' }),
      });
      expect(create.status).toBe(404);
      expect((await fetch(`${server.url}/sandbox/cryptomus/pay/x`)).status).toBe(404);
    });

    it('answers Bitcart IPNs with the coded error and stores nothing', async () => {
      const { status, body } = await server.request('POST', '/api/topup/bitcart/webhook', {
        body: { id: 'forged', status: 'complete' },
      });
      expect(status).toBe(503);
      expect(body).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE' });
      expect(await queryRows(server, 'select 1 from payment_events')).toEqual([]);
    });
  });

  describe('PAYMENTS_SANDBOX=on beside a real Cryptomus (development)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { cryptomus: realCryptomus, paymentsSandbox: 'on' });
    });
    afterAll(async () => {
      await server.close();
    });

    it('runs the Bitcart sandbox and says payments are simulated', async () => {
      expect((await server.request('GET', '/api/config')).body).toMatchObject({
        paymentsSandbox: true,
        paymentProviders: { cryptomus: 'live', bitcart: 'sandbox' },
      });
      const { token } = await createUserViaApi(server);
      const invoice = await server.request<{ invoiceUrl: string }>(
        'POST',
        '/api/topup/bitcart/create-invoice',
        {
          token,
          body: { amount: 10 },
        },
      );
      expect(invoice.status).toBe(201);
      expect(invoice.body.invoiceUrl).toMatch(new RegExp(`^${server.url}/sandbox/bitcart/admin/i/`));
    });
  });

  describe('PAYMENTS_SANDBOX=off with no provider configured', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { paymentsSandbox: 'off' });
    });
    afterAll(async () => {
      await server.close();
    });

    it('runs neither provider and simulates nothing', async () => {
      expect((await server.request('GET', '/api/config')).body).toMatchObject({
        paymentsSandbox: false,
        paymentProviders: { cryptomus: 'unavailable', bitcart: 'unavailable' },
      });
      const { token } = await createUserViaApi(server);
      const { status, body } = await server.request('POST', '/api/topup/cryptomus/create-invoice', {
        token,
        body: { amount: 10 },
      });
      expect(status).toBe(503);
      expect(body).toEqual({
        error: 'Payments with Cryptomus are not available right now. Please use another payment method.',
        code: 'PAYMENT_PROVIDER_UNAVAILABLE',
      });
      expect((await fetch(`${server.url}/sandbox/checkout-frame.js`)).status).toBe(404);
    });
  });
});
