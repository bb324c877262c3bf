import { testDatabaseKinds } from '@bytegate/db/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { createBitcartProvider } from '../bitcart/bitcart-provider.ts';
import { createCryptomusProvider } from '../cryptomus/cryptomus-provider.ts';
import { cryptomusSign, phpJson } from '../cryptomus/sign.ts';
import { PaymentProviderError } from '../provider.ts';
import { BITCART_SANDBOX_STORE, BITCART_SANDBOX_TOKEN, bitcartSandbox } from './bitcart-sandbox.ts';
import { CRYPTOMUS_SANDBOX_KEY, CRYPTOMUS_SANDBOX_MERCHANT, cryptomusSandbox } from './cryptomus-sandbox.ts';

describe.each(testDatabaseKinds())('the payment sandboxes in the app on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A signed Cryptomus create-invoice call, as the real client sends it. */
  const createCryptomusInvoice = (fields: Record<string, unknown>) => {
    const body = phpJson({
      amount: '10.00',
      currency: 'USD',
      order_id: `o${Date.now()}${Math.random()}`.replace('.', ''),
      ...fields,
    });
    return fetch(`${server.url}/sandbox/cryptomus/v1/payment`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        merchant: CRYPTOMUS_SANDBOX_MERCHANT,
        sign: cryptomusSign(body, CRYPTOMUS_SANDBOX_KEY),
      },
      body,
    });
  };
  const createBitcartInvoice = (fields: Record<string, unknown>) =>
    fetch(`${server.url}/sandbox/bitcart/api/invoices/order_id/o${Date.now()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BITCART_SANDBOX_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ store_id: BITCART_SANDBOX_STORE, price: '10.00', ...fields }),
    });

  it('Cryptomus: refuses return and callback URLs off our origin, in its 422 format', async () => {
    const refusals: Array<[string, string]> = [
      ['url_return', 'javascript:alert(document.cookie)'],
      ['url_success', 'https://evil.example/paid'],
      ['url_callback', 'http://127.0.0.1:1/steal'],
      ['url_return', `${server.url.replace('http:', 'ftp:')}/dashboard`],
      ['url_callback', 'not a url'],
    ];
    for (const [field, value] of refusals) {
      const response = await createCryptomusInvoice({ [field]: value });
      expect(response.status, `${field}=${value}`).toBe(422);
      expect(await response.json()).toEqual({ state: 1, errors: { [field]: ['validation.url'] } });
    }
    const ours = await createCryptomusInvoice({
      url_return: `${server.url}/dashboard`,
      url_success: `${server.url}/dashboard`,
      url_callback: `${server.url}/api/topup/cryptomus/webhook`,
    });
    expect(ours.status).toBe(200);
    const { result } = (await ours.json()) as { result: { url: string } };
    const page = await (await fetch(result.url)).text();
    expect(page).toContain(`href="${server.url}/dashboard"`);
  });

  it('Bitcart: refuses redirect and notification URLs off our origin, in its 422 format', async () => {
    for (const [field, value] of [
      ['redirect_url', 'javascript:alert(1)'],
      ['notification_url', 'https://evil.example/ipn'],
      ['redirect_url', 'data:text/html,<script>alert(1)</script>'],
    ] as const) {
      const response = await createBitcartInvoice({ [field]: value });
      expect(response.status, `${field}=${value}`).toBe(422);
      expect(await response.json()).toEqual({
        detail: [
          { loc: ['body', field], msg: 'must be an http(s) URL on the store origin', type: 'value_error' },
        ],
      });
    }
    const ours = await createBitcartInvoice({ redirect_url: `${server.url}/dashboard` });
    expect(ours.status).toBe(200);
    const { id } = (await ours.json()) as { id: string };
    const page = await (await fetch(`${server.url}/sandbox/bitcart/admin/i/${id}`)).text();
    expect(page).toContain(`href="${server.url}/dashboard"`);
  });
});

describe('the payment sandboxes keep few invoices, and only for their lifetime', () => {
  let app: FastifyInstance;
  let baseUrl = '';
  let clock = Date.now();
  beforeAll(async () => {
    app = Fastify();
    const options = { publicBaseUrl: () => baseUrl, maxInvoices: 3, now: () => clock };
    await app.register(cryptomusSandbox(options), { prefix: '/sandbox/cryptomus' });
    await app.register(bitcartSandbox(options), { prefix: '/sandbox/bitcart' });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  // Our real clients, speaking each provider's wire protocol to the sandbox.
  const cryptomus = () =>
    createCryptomusProvider({
      merchantId: CRYPTOMUS_SANDBOX_MERCHANT,
      apiKey: CRYPTOMUS_SANDBOX_KEY,
      apiUrl: () => `${baseUrl}/sandbox/cryptomus`,
      isSandbox: true,
    });
  const bitcart = () =>
    createBitcartProvider({
      apiUrl: () => `${baseUrl}/sandbox/bitcart/api`,
      adminUrl: () => `${baseUrl}/sandbox/bitcart/admin`,
      token: BITCART_SANDBOX_TOKEN,
      storeId: BITCART_SANDBOX_STORE,
      isSandbox: true,
    });
  const invoiceFor = (orderId: string) => ({
    orderId,
    amountCents: 1000,
    callbackUrl: `${baseUrl}/webhook`,
    returnUrl: `${baseUrl}/dashboard`,
  });
  const notFound = (promise: Promise<unknown>) =>
    promise.then(
      () => 'found',
      (error: unknown) => (error instanceof PaymentProviderError ? error.status : error),
    );

  for (const [name, provider] of [
    ['Cryptomus', cryptomus],
    ['Bitcart', bitcart],
  ] as const) {
    it(`${name}: drops the oldest invoice beyond the bound`, async () => {
      const opened = [];
      for (const n of [1, 2, 3, 4]) {
        opened.push(await provider().createInvoice(invoiceFor(`${name}-bound-${n}`)));
      }
      const [first, ...rest] = opened.map((invoice) => ({
        invoiceId: invoice.invoiceId,
        orderId: invoice.orderId,
      }));
      expect(await notFound(provider().getInvoice(first ?? { invoiceId: '', orderId: '' }))).toBe(404);
      for (const ref of rest) {
        expect((await provider().getInvoice(ref)).outcome).toBe('pending');
      }
    });

    it(`${name}: the checkout page's way back opens in the top window, never inside the checkout's frame`, async () => {
      const invoice = await provider().createInvoice(invoiceFor(`${name}-back`));
      const html = await (await fetch(invoice.checkoutUrl)).text();
      expect(html).toContain(
        `<a class="back" href="${baseUrl}/dashboard" target="_top">Back to Bytegate</a>`,
      );
    });
  }

  it('Cryptomus: an unpaid invoice is cancelled once its lifetime ends, as Cryptomus does', async () => {
    const invoice = await cryptomus().createInvoice(invoiceFor('cryptomus-expiry'));
    const ref = { invoiceId: invoice.invoiceId, orderId: invoice.orderId };
    expect(invoice.expiresAt?.getTime()).toBe(Math.floor(clock / 1000) * 1000 + 3600_000);
    clock += 3599_000;
    expect((await cryptomus().getInvoice(ref)).rawStatus).toBe('check');
    clock += 2_000;
    const expired = await cryptomus().getInvoice(ref);
    expect(expired).toMatchObject({ rawStatus: 'cancel', outcome: 'failed' });
    // Its checkout page no longer takes a payment.
    const pay = await fetch(`${baseUrl}/sandbox/cryptomus/pay/${invoice.invoiceId}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(pay.status).toBe(303);
    expect((await cryptomus().getInvoice(ref)).rawStatus).toBe('cancel');
  });

  it('Bitcart: an unpaid invoice expires after its expiration, and a retry opens a new one', async () => {
    const invoice = await bitcart().createInvoice(invoiceFor('bitcart-expiry'));
    const ref = { invoiceId: invoice.invoiceId, orderId: invoice.orderId };
    clock += 14 * 60_000;
    expect((await bitcart().getInvoice(ref)).rawStatus).toBe('pending');
    clock += 2 * 60_000;
    expect(await bitcart().getInvoice(ref)).toMatchObject({ rawStatus: 'expired', outcome: 'failed' });
    const retried = await bitcart().createInvoice(invoiceFor('bitcart-expiry'));
    expect(retried.invoiceId).not.toBe(invoice.invoiceId);
  });
});

describe('the payment sandboxes bound their invoices in bytes, not only in count', () => {
  let app: FastifyInstance;
  let baseUrl = '';
  beforeAll(async () => {
    app = Fastify();
    // Room for a thousand invoices by count, but only 100 KB of them.
    const options = { publicBaseUrl: () => baseUrl, maxInvoices: 1000, maxBytes: 100_000 };
    await app.register(cryptomusSandbox(options), { prefix: '/sandbox/cryptomus' });
    await app.register(bitcartSandbox(options), { prefix: '/sandbox/bitcart' });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });

  const providers = {
    Cryptomus: () =>
      createCryptomusProvider({
        merchantId: CRYPTOMUS_SANDBOX_MERCHANT,
        apiKey: CRYPTOMUS_SANDBOX_KEY,
        apiUrl: () => `${baseUrl}/sandbox/cryptomus`,
        isSandbox: true,
      }),
    Bitcart: () =>
      createBitcartProvider({
        apiUrl: () => `${baseUrl}/sandbox/bitcart/api`,
        adminUrl: () => `${baseUrl}/sandbox/bitcart/admin`,
        token: BITCART_SANDBOX_TOKEN,
        storeId: BITCART_SANDBOX_STORE,
        isSandbox: true,
      }),
  };

  for (const [name, provider] of Object.entries(providers)) {
    it(`${name}: 20 KB URLs drop the oldest invoices past the bound in bytes; the newest stay`, async () => {
      // Our own origin, so accepted: at 20 KB each, fewer than five fit in 100 KB.
      const returnUrl = `${baseUrl}/dashboard?pad=${'x'.repeat(20_000)}`;
      const opened = [];
      for (let n = 1; n <= 8; n += 1) {
        const invoice = await provider().createInvoice({
          orderId: `${name}-bytes-${n}`,
          amountCents: 1000,
          callbackUrl: `${baseUrl}/webhook`,
          returnUrl,
        });
        opened.push({ invoiceId: invoice.invoiceId, orderId: invoice.orderId });
      }
      const outcomes = await Promise.all(
        opened.map((ref) =>
          provider()
            .getInvoice(ref)
            .then(
              (found) => found.outcome,
              (error: unknown) => (error instanceof PaymentProviderError ? error.status : error),
            ),
        ),
      );
      expect(outcomes).toEqual([404, 404, 404, 404, 'pending', 'pending', 'pending', 'pending']);
    });
  }
});
