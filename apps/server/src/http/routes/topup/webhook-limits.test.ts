import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';
import { WEBHOOK_BODY_LIMIT_BYTES } from './webhook-limits.ts';

const countEvents = async (server: TestServer) =>
  (await queryRows<{ n: number }>(server, 'select count(*)::int as n from payment_events'))[0]?.n;

describe.each(testDatabaseKinds())('payment webhook limits on %s', (kind) => {
  describe('body size', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind);
    });
    afterAll(async () => {
      await server.close();
    });

    it('refuses a webhook body over the limit before storing it', async () => {
      // Well under the API's general limit, but no real webhook is anywhere near this big.
      const padding = 'x'.repeat(WEBHOOK_BODY_LIMIT_BYTES + 1);
      for (const provider of ['cryptomus', 'bitcart']) {
        const { status, body } = await server.request('POST', `/api/topup/${provider}/webhook`, {
          body: { id: 'invoice', uuid: 'invoice', status: 'paid', padding },
        });
        expect(status, provider).toBe(400);
        expect(body).toEqual({ error: 'The request body is too large', code: 'BODY_TOO_LARGE' });
      }
      expect(await countEvents(server)).toBe(0);
      // A webhook of a normal size is still taken (and stored).
      const normal = await server.request('POST', '/api/topup/bitcart/webhook', {
        body: { id: 'unknown-invoice', status: 'complete' },
      });
      expect(normal.status).toBe(200);
      expect(await countEvents(server)).toBe(1);
    });
  });

  describe('rate', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { rateLimits: { paymentWebhooks: { max: 3, windowMs: 60_000 } } });
    });
    afterAll(async () => {
      await server.close();
    });

    it('limits webhooks per address and stores none over the limit', async () => {
      const send = (provider: string) =>
        server.request('POST', `/api/topup/${provider}/webhook`, {
          body: { id: 'junk', status: 'complete' },
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await send('bitcart')).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await send('bitcart');
      expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
      expect(refused.body.error).toMatch(/^Too many requests\. Please try again in/);
      expect(await countEvents(server)).toBe(3);
      // Cryptomus' route counts on its own.
      for (let i = 0; i < 3; i++) {
        expect((await send('cryptomus')).status).toBe(400); // unsigned: refused, but stored
      }
      expect((await send('cryptomus')).status).toBe(429);
      expect(await countEvents(server)).toBe(6);
    });
  });
});
