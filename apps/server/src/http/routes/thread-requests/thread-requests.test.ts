import type { ThreadRequest, ThreadRequestListResponse } from '@bytegate/contracts/thread-requests';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomerWithPlan } from '../../../testing/staff.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

type Customer = Awaited<ReturnType<typeof createCustomerWithPlan>>;
type Answer = ThreadRequest & { error?: string; code?: string };

const PURPOSE = 'Price monitoring of 40 retail sites with 800 parallel crawlers';

describe.each(testDatabaseKinds())('thread requests of a customer on %s', (kind) => {
  let server: TestServer;
  let customer: Customer;
  beforeAll(async () => {
    // The per-customer limit has its own test below; these send many refused requests on purpose.
    server = await startTestServer(kind, { rateLimits: { threadRequests: { max: 1000, windowMs: 60_000 } } });
    customer = await createCustomerWithPlan(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = (token: string, body: Record<string, unknown>) =>
    server.request<Answer>('POST', '/api/thread-requests', { token, body });
  const list = (token: string) =>
    server.request<ThreadRequestListResponse>('GET', '/api/thread-requests', { token });
  const cancel = (token: string, requestId: string) =>
    server.request<Answer>('POST', `/api/thread-requests/${requestId}/cancel`, { token, body: {} });

  describe('POST /api/thread-requests', () => {
    it('answers 401 without a session', async () => {
      const answer = await server.request('POST', '/api/thread-requests', {
        body: { subUserId: customer.planId, requestedThreads: 800, purpose: PURPOSE },
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it('refuses bad input with a message naming the problem', async () => {
      const valid = { subUserId: customer.planId, requestedThreads: 800, purpose: PURPOSE };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...valid, requestedThreads: undefined }, 'Please enter a whole number of threads.'],
        [{ ...valid, requestedThreads: 'many' }, 'Please enter a whole number of threads.'],
        [{ ...valid, requestedThreads: 800.5 }, 'Please enter a whole number of threads.'],
        [{ ...valid, requestedThreads: 10_001 }, 'Requested threads must be at most 10,000.'],
        // The plan allows 500 (datacenter's default): asking for as many or fewer asks for nothing.
        [
          { ...valid, requestedThreads: 500 },
          'Requested threads must be more than your current limit of 500.',
        ],
        [{ ...valid, purpose: undefined }, 'Please describe what the threads are for.'],
        [{ ...valid, purpose: '   ' }, 'Please describe what the threads are for.'],
        [{ ...valid, purpose: 'scraping' }, 'Purpose must be at least 20 characters.'],
        [{ ...valid, purpose: 'x'.repeat(2001) }, 'Purpose must be at most 2,000 characters.'],
        [
          { ...valid, purpose: `${PURPOSE}\u0000` },
          'Purpose must not contain control characters (such as NUL)',
        ],
        [{ ...valid, company: 'c'.repeat(201) }, 'Company must be at most 200 characters'],
        [
          { ...valid, website: 'not a website' },
          'Please enter a valid website address, such as https://example.com.',
        ],
        [
          { ...valid, website: 'ftp://example.com' },
          'Please enter a valid website address, such as https://example.com.',
        ],
        [
          { ...valid, website: 'https://user:secret@example.com' },
          'Please enter a valid website address, such as https://example.com.',
        ],
        [
          { ...valid, website: 'http://localhost' },
          'Please enter a valid website address, such as https://example.com.',
        ],
      ];
      for (const [body, error] of cases) {
        const answer = await create(customer.token, body);
        expect({ body, status: answer.status, answer: answer.body }).toEqual({
          body,
          status: 400,
          answer: expect.objectContaining({ error, code: 'VALIDATION_FAILED' }),
        });
      }
      expect(await queryRows(server, 'select id from thread_requests')).toEqual([]);
    });

    it("answers 404 for another customer's plan, as for none at all", async () => {
      const stranger = await createCustomerWithPlan(server);
      for (const subUserId of [stranger.planId, '00000000-0000-4000-8000-000000000000', 'nope']) {
        const answer = await create(customer.token, { subUserId, requestedThreads: 800, purpose: PURPOSE });
        expect({ subUserId, status: answer.status, body: answer.body }).toEqual({
          subUserId,
          status: 404,
          body: { error: 'No plan found', code: 'NOT_FOUND' },
        });
      }
      // A customer without any plan gets the same answer.
      const planless = await createUserViaApi(server);
      const answer = await create(planless.token, {
        subUserId: customer.planId,
        requestedThreads: 800,
        purpose: PURPOSE,
      });
      expect(answer.status).toBe(404);
    });

    it('records the request as pending, with the limit it had, and refuses a second one for the plan', async () => {
      const created = await create(customer.token, {
        subUserId: customer.planId,
        requestedThreads: 800,
        purpose: `  ${PURPOSE}\n\nPeaks on Mondays.  `,
        company: '  Acme Retail Ltd  ',
        website: 'acme-retail.example.com/about',
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        subUserId: customer.planId,
        poolType: 'datacenter',
        status: 'pending',
        currentThreads: 500,
        requestedThreads: 800,
        grantedThreads: null,
        purpose: `${PURPOSE}\n\nPeaks on Mondays.`,
        company: 'Acme Retail Ltd',
        website: 'https://acme-retail.example.com/about',
        decisionMessage: null,
        createdAt: expect.any(String),
        decidedAt: null,
      });

      const again = await create(customer.token, {
        subUserId: customer.planId,
        requestedThreads: 1000,
        purpose: PURPOSE,
      });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        error:
          'You already have a pending thread request for this plan. Wait for our answer, or cancel it to ask again.',
        code: 'THREAD_REQUEST_PENDING',
      });
      // The plan's limit is support's to change: asking changes nothing yet.
      const [plan] = await queryRows<{ thread_limit: number }>(
        server,
        `select thread_limit from plans where id = '${customer.planId}'`,
      );
      expect(plan?.thread_limit).toBe(500);
    });

    it('lets only one of two requests sent at once through', async () => {
      const racer = await createCustomerWithPlan(server);
      const body = { subUserId: racer.planId, requestedThreads: 900, purpose: PURPOSE };
      const answers = await Promise.all([create(racer.token, body), create(racer.token, body)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      const rows = await queryRows(
        server,
        `select id from thread_requests where plan_id = '${racer.planId}'`,
      );
      expect(rows).toHaveLength(1);
    });
  });

  describe('GET /api/thread-requests', () => {
    it('answers 401 without a session', async () => {
      expect((await server.request('GET', '/api/thread-requests')).status).toBe(401);
    });

    it("lists the customer's own requests, newest first, and no one else's", async () => {
      const mine = await list(customer.token);
      expect(mine.status).toBe(200);
      expect(mine.body.requests).toHaveLength(1);
      expect(mine.body.requests[0]).toMatchObject({
        subUserId: customer.planId,
        status: 'pending',
        requestedThreads: 800,
      });
      const stranger = await createCustomerWithPlan(server);
      expect((await list(stranger.token)).body.requests).toEqual([]);
    });
  });

  describe('POST /api/thread-requests/:requestId/cancel', () => {
    it('answers 401 without a session and 400 for a malformed id', async () => {
      const anonymous = await server.request(
        'POST',
        '/api/thread-requests/00000000-0000-4000-8000-000000000000/cancel',
        { body: {} },
      );
      expect(anonymous.status).toBe(401);
      const malformed = await cancel(customer.token, 'nope');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'Request id must be a UUID', code: 'VALIDATION_FAILED' });
    });

    it("cancels a pending request of the customer's, once; then the plan may be asked for again", async () => {
      const [pending] = (await list(customer.token)).body.requests;
      const requestId = pending?.id ?? '';
      const stranger = await createCustomerWithPlan(server);
      const notTheirs = await cancel(stranger.token, requestId);
      expect(notTheirs.status).toBe(404);
      expect(notTheirs.body).toEqual({ error: 'No such thread request', code: 'NOT_FOUND' });

      const cancelled = await cancel(customer.token, requestId);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({
        id: requestId,
        status: 'cancelled',
        decidedAt: expect.any(String),
      });
      const twice = await cancel(customer.token, requestId);
      expect(twice.status).toBe(409);
      expect(twice.body).toEqual({
        error: 'This request was already cancelled.',
        code: 'THREAD_REQUEST_CLOSED',
      });

      const next = await create(customer.token, {
        subUserId: customer.planId,
        requestedThreads: 600,
        purpose: PURPOSE,
      });
      expect(next.status).toBe(201);
      expect((await list(customer.token)).body.requests.map((request) => request.status)).toEqual([
        'pending',
        'cancelled',
      ]);
    });
  });

  it('withdraws a pending request when its account is deleted', async () => {
    const leaving = await createCustomerWithPlan(server);
    const asked = await create(leaving.token, {
      subUserId: leaving.planId,
      requestedThreads: 900,
      purpose: PURPOSE,
    });
    expect(asked.status).toBe(201);
    const deleted = await server.request('DELETE', '/api/user-settings/account', {
      token: leaving.token,
      body: { password: leaving.password },
    });
    expect(deleted.status).toBe(200);
    const rows = await queryRows<{ status: string }>(
      server,
      `select status from thread_requests where user_id = '${leaving.userId}'`,
    );
    expect(rows).toEqual([{ status: 'cancelled' }]);
  });
});

describe.each(testDatabaseKinds())('thread requests a customer may send on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { rateLimits: { threadRequests: { max: 2, windowMs: 60_000 } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('are limited per customer: asking, cancelling and asking again cannot flood the queue', async () => {
    const customer = await createCustomerWithPlan(server);
    const other = await createCustomerWithPlan(server);
    const ask = (who: typeof customer) =>
      server.request<Answer>('POST', '/api/thread-requests', {
        token: who.token,
        body: { subUserId: who.planId, requestedThreads: 900, purpose: PURPOSE },
      });
    const first = await ask(customer);
    expect(first.status).toBe(201);
    await server.request('POST', `/api/thread-requests/${first.body.id}/cancel`, {
      token: customer.token,
      body: {},
    });
    const second = await ask(customer);
    expect(second.status).toBe(201);
    await server.request('POST', `/api/thread-requests/${second.body.id}/cancel`, {
      token: customer.token,
      body: {},
    });
    const third = await ask(customer);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'RATE_LIMITED' });
    // Another customer has their own count.
    expect((await ask(other)).status).toBe(201);
  });
});
