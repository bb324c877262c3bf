import { sumLedger } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserViaApi, queryRows, startTestServer, type TestServer } from '../testing/test-server.ts';
import { reconcileTopups } from './reconcile-topups.ts';

describe.each(testDatabaseKinds())('reconciling top-ups on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    // A public URL nobody answers on: the providers' webhooks are all lost.
    server = await startTestServer(kind, { publicUrl: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('credits paid invoices whose webhooks never arrived, once, and leaves unpaid ones pending', async () => {
    const { token, email } = await createUserViaApi(server);
    const paid: string[] = [];
    for (const provider of ['cryptomus', 'bitcart'] as const) {
      const invoice = await server.request<{ invoiceUrl: string }>(
        'POST',
        `/api/topup/${provider}/create-invoice`,
        {
          token,
          body: { amount: 10 },
        },
      );
      // Press "Pay" on the sandbox checkout, reached at the real address.
      const path = new URL(invoice.body.invoiceUrl).pathname;
      const response = await fetch(`${server.url}${path}/pay`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(response.status).toBe(303);
      paid.push(provider);
    }
    await server.request('POST', '/api/topup/cryptomus/create-invoice', { token, body: { amount: 7 } });
    const [user] = await queryRows<{ id: string }>(server, `select id from users where email = '${email}'`);
    expect(await sumLedger(server.database.db, { userId: user?.id ?? '' })).toBe(0);

    const ctx = { db: server.database.db, config: server.config };
    expect(await reconcileTopups(ctx, server.payments)).toBe(2);
    expect(await reconcileTopups(ctx, server.payments)).toBe(0);
    expect(await sumLedger(server.database.db, { userId: user?.id ?? '' })).toBe(2000);
    const statuses = await queryRows<{ status: string; amount_cents: number }>(
      server,
      `select status, amount_cents::int as amount_cents from orders where user_id = '${user?.id}' order by number`,
    );
    expect(statuses).toEqual([
      { status: 'completed', amount_cents: 1000 },
      { status: 'completed', amount_cents: 1000 },
      { status: 'pending', amount_cents: 700 },
    ]);
  });
});
