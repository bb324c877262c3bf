import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserViaApi, queryRows, startTestServer, type TestServer } from '../testing/test-server.ts';
import { prunePaymentEvents } from './prune-payment-events.ts';

describe.each(testDatabaseKinds())('pruning payment events on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Opens a Bitcart top-up and ends it with one of the sandbox checkout's buttons (or leaves it open). */
  const topUp = async (token: string, outcome: 'pay' | 'fail' | null) => {
    const invoice = await server.request<{ id: string; invoiceUrl: string }>(
      'POST',
      '/api/topup/bitcart/create-invoice',
      { token, body: { amount: 10 } },
    );
    if (outcome) {
      await fetch(`${invoice.body.invoiceUrl}/${outcome}`, { method: 'POST', redirect: 'manual' });
    }
    // One more IPN, as anyone could send, so every top-up has an event.
    await server.request('POST', '/api/topup/bitcart/webhook', {
      body: { id: invoice.body.id, status: 'x' },
    });
    return invoice.body.id;
  };
  const eventsOf = async (invoiceId: string) =>
    (
      await queryRows<{ n: number }>(
        server,
        `select count(*)::int as n from payment_events where provider_invoice_id = '${invoiceId}'`,
      )
    )[0]?.n;

  it('deletes events older than 90 days, except those of top-ups not settled yet', async () => {
    const { token } = await createUserViaApi(server);
    const paid = await topUp(token, 'pay');
    const failed = await topUp(token, 'fail');
    const open = await topUp(token, null);
    await server.request('POST', '/api/topup/bitcart/webhook', { body: { id: 'junk', status: 'complete' } });
    // One top-up held for review: its events are kept too.
    const review = await topUp(token, null);
    await queryRows(server, `update orders set status = 'review' where provider_invoice_id = '${review}'`);
    expect(await eventsOf(paid)).toBe(2);
    expect(await eventsOf(failed)).toBe(2);

    const ctx = { db: server.database.db, config: server.config };
    expect(await prunePaymentEvents(ctx)).toBe(0);
    // 89 days on, nothing is old enough; 91 days on, only events of settled top-ups and junk go.
    expect(await prunePaymentEvents(ctx, new Date(Date.now() + 89 * 86_400_000))).toBe(0);
    expect(await prunePaymentEvents(ctx, new Date(Date.now() + 91 * 86_400_000))).toBe(5);
    expect(await eventsOf(paid)).toBe(0);
    expect(await eventsOf(failed)).toBe(0);
    expect(await eventsOf('junk')).toBe(0);
    expect(await eventsOf(open)).toBe(1);
    expect(await eventsOf(review)).toBe(1);
  });
});
