import { topupMessages } from '@bytegate/contracts/topup';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

// Top-up invoices through the public API (issue 17): scope `billing`; the invoice opens at the payment
// provider (the built-in sandboxes here, which speak the providers' real protocols) and stays pending.

describe.each(testDatabaseKinds())('POST /api/v1/topups on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  async function keyWith(scopes: string[]) {
    const user = await createUserViaApi(server);
    const created = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: user.token,
      body: { name: 'billing', scopes, password: user.password },
    });
    return { ...user, secret: created.body.secret };
  }

  it('opens an invoice at each provider for a billing key: a pending order, nothing credited', async () => {
    const customer = await keyWith(['billing']);
    for (const provider of ['cryptomus', 'bitcart']) {
      const opened = await server.request<Record<string, unknown>>('POST', '/api/v1/topups', {
        token: customer.secret,
        body: { provider, amount_usd: '25.50' },
      });
      expect(opened.status, provider).toBe(201);
      expect(opened.body).toMatchObject({ provider, amount_usd: 25.5, status: 'pending' });
      expect(String(opened.body.checkout_url)).toMatch(/^http/);
    }
    const orders = await queryRows<{ status: string; cents: number; kind: string }>(
      server,
      `select o.status, o.amount_cents::int as cents, o.kind from orders o join users u on u.id = o.user_id
       where u.email = '${customer.email}'`,
    );
    expect(orders).toEqual([
      { status: 'pending', cents: 2550, kind: 'topup' },
      { status: 'pending', cents: 2550, kind: 'topup' },
    ]);
    const [balance] = await queryRows<{ balance: number }>(
      server,
      `select coalesce(sum(amount_cents), 0)::int as balance from ledger_entries l join users u on u.id = l.user_id where u.email = '${customer.email}'`,
    );
    expect(balance?.balance).toBe(0);
  });

  it('answers 403 to a key without billing, and 400 for a bad amount or provider', async () => {
    const reader = await keyWith(['read', 'purchase']);
    const refused = await server.request('POST', '/api/v1/topups', {
      token: reader.secret,
      body: { provider: 'cryptomus', amount_usd: 10 },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    const billing = await keyWith(['billing']);
    const bad = await server.request('POST', '/api/v1/topups', {
      token: billing.secret,
      body: { provider: 'cryptomus', amount_usd: 'ten' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(topupMessages.invalidAmount);
    expect(
      (
        await server.request('POST', '/api/v1/topups', {
          token: billing.secret,
          body: { provider: 'paypal', amount_usd: 10 },
        })
      ).status,
    ).toBe(400);
  });
});
