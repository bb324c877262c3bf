import type { AuditResponse } from '@bytegate/contracts/admin';
import type {
  AdminThreadRequestResponse,
  AdminThreadRequestsResponse,
  ThreadRequest,
  ThreadRequestListResponse,
} from '@bytegate/contracts/thread-requests';
import { addUsage } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../../mail/testing/smtp-sink.ts';
import { setStaffRole } from '../../../services/back-office/set-staff-role.ts';
import { CLI_ACTOR } from '../../../services/back-office/staff-actor.ts';
import { createCustomerWithPlan, createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Customer = Awaited<ReturnType<typeof createCustomerWithPlan>>;
type Staff = Awaited<ReturnType<typeof createUserWithRole>>;
type Decision = AdminThreadRequestResponse & { error?: string; code?: string };

const PURPOSE = 'Price monitoring of 40 retail sites with 800 parallel crawlers';
const BOUNCING = 'bounce@example.com';

describe.each(testDatabaseKinds())('back office thread requests on %s', (kind) => {
  let sink: SmtpSink;
  let server: TestServer;
  let support: Staff;
  let admin: Staff;
  beforeAll(async () => {
    // Decisions are mailed through a real SMTP server that refuses one recipient.
    sink = await startSmtpSink({ refuseRecipient: BOUNCING });
    server = await startTestServer(kind, {
      mail: { smtpUrl: `smtp://127.0.0.1:${sink.port}`, from: 'Bytegate <no-reply@bytegate.example>' },
    });
    support = await createUserWithRole(server, 'support');
    admin = await createUserWithRole(server, 'admin');
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  /** The customer asks for `requestedThreads` on their plan; answers the pending request. */
  async function askFor(customer: Customer, requestedThreads: number): Promise<ThreadRequest> {
    const answer = await server.request<ThreadRequest>('POST', '/api/thread-requests', {
      token: customer.token,
      body: { subUserId: customer.planId, requestedThreads, purpose: PURPOSE, company: 'Acme Retail' },
    });
    expect(answer.status).toBe(201);
    return answer.body;
  }
  const queue = (query = '', token = support.token) =>
    server.request<AdminThreadRequestsResponse & { error?: string }>(
      'GET',
      `/api/admin/thread-requests${query}`,
      { token },
    );
  const decide = (action: 'approve' | 'decline', requestId: string, body: object, token = support.token) =>
    server.request<Decision>('POST', `/api/admin/thread-requests/${requestId}/${action}`, { token, body });
  const customerView = async (customer: Customer) =>
    (
      await server.request<ThreadRequestListResponse>('GET', '/api/thread-requests', {
        token: customer.token,
      })
    ).body.requests;
  const threadLimitOf = async (planId: string) =>
    (
      await queryRows<{ thread_limit: number }>(
        server,
        `select thread_limit from plans where id = '${planId}'`,
      )
    )[0]?.thread_limit;
  const auditOf = async (planId: string, action: string) =>
    (
      await server.request<AuditResponse>(
        'GET',
        `/api/admin/audit?targetId=${planId}&action=${encodeURIComponent(action)}`,
        { token: support.token },
      )
    ).body.entries;

  describe('GET /api/admin/thread-requests', () => {
    it('lists pending requests first, oldest first, with the customer, the plan and its usage', async () => {
      const first = await createCustomerWithPlan(server, { overrides: { firstName: 'Grace' } });
      const second = await createCustomerWithPlan(server, { poolType: 'residential' });
      const third = await createCustomerWithPlan(server);
      const asked = [await askFor(first, 800), await askFor(second, 400), await askFor(third, 1000)];
      // A week of the first plan's traffic: requests, errors, and refusals for want of a thread.
      const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
      await addUsage(server.database.db, {
        planId: first.planId,
        bucketStart: hour,
        bytes: 1024,
        extraBytes: 0,
        requests: 120,
        errors: 7,
      });
      await queryRows(
        server,
        `insert into usage_errors (plan_id, bucket_start, code, count) values ('${first.planId}', '${hour.toISOString()}', 'THREADS_EXHAUSTED', 5), ('${first.planId}', '${hour.toISOString()}', 'NO_RAY', 2)`,
      );
      const declined = await decide('decline', asked[1]?.id ?? '', {
        message: 'We need a company website before raising residential plans.',
      });
      expect(declined.status).toBe(200);

      const all = await queue();
      expect(all.status).toBe(200);
      const ids = all.body.requests.map((request) => request.id);
      expect(ids.indexOf(asked[0]?.id ?? '')).toBeLessThan(ids.indexOf(asked[2]?.id ?? ''));
      expect(ids.indexOf(asked[2]?.id ?? '')).toBeLessThan(ids.indexOf(asked[1]?.id ?? ''));
      const statuses = all.body.requests.map((request) => request.status);
      expect(statuses.lastIndexOf('pending')).toBeLessThan(statuses.indexOf('declined'));
      expect(all.body.requests.find((request) => request.id === asked[0]?.id)).toEqual({
        id: asked[0]?.id,
        status: 'pending',
        currentThreads: 500,
        requestedThreads: 800,
        grantedThreads: null,
        purpose: PURPOSE,
        company: 'Acme Retail',
        website: null,
        decisionMessage: null,
        createdAt: expect.any(String),
        decidedAt: null,
        decidedByEmail: null,
        customer: {
          id: first.userId,
          email: first.email,
          firstName: 'Grace',
          lastName: 'Lovelace',
          isStaff: false,
          isDisabled: false,
        },
        plan: {
          id: first.planId,
          poolType: 'datacenter',
          login: first.login,
          label: 'Datacenter plan',
          threadLimit: 500,
          isActive: true,
          trafficTotalBytes: 5 * 1024 ** 3,
          trafficUsedBytes: 0,
        },
        usage: { requests: 120, errors: 7, threadsExhausted: 5 },
      });
      expect(JSON.stringify(all.body)).not.toMatch(/password/i);
      expect(all.body.counts).toMatchObject({ pending: expect.any(Number), declined: 1 });
      expect(all.body.counts.pending).toBeGreaterThanOrEqual(2);
      expect(all.body.pagination).toMatchObject({ currentPage: 1, itemsPerPage: 20 });

      const onlyDeclined = await queue('?status=declined');
      expect(onlyDeclined.body.requests.map((request) => [request.id, request.decisionMessage])).toEqual([
        [asked[1]?.id, 'We need a company website before raising residential plans.'],
      ]);
      expect(onlyDeclined.body.requests[0]).toMatchObject({ decidedByEmail: support.email });
      expect(onlyDeclined.body.pagination.totalItems).toBe(1);
      expect((await queue('?status=')).body.requests.length).toBe(all.body.requests.length);
      expect((await queue('?page=99')).body.requests).toEqual([]);
    });

    it('refuses an unknown status or page', async () => {
      const status = await queue('?status=open');
      expect(status.status).toBe(400);
      expect(status.body).toEqual({
        error: 'Status must be pending, approved, declined or cancelled',
        code: 'VALIDATION_FAILED',
      });
      expect((await queue('?page=0')).status).toBe(400);
    });
  });

  describe('POST /api/admin/thread-requests/:requestId/approve', () => {
    it('refuses a malformed or unknown request and a bad grant', async () => {
      const malformed = await decide('approve', 'nope', {});
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'Request id must be a UUID', code: 'VALIDATION_FAILED' });
      const unknown = await decide('approve', '00000000-0000-4000-8000-000000000000', {});
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'No such thread request', code: 'NOT_FOUND' });
      const customer = await createCustomerWithPlan(server);
      const asked = await askFor(customer, 800);
      for (const [grantedThreads, error] of [
        [0, 'Granted threads must be a whole number.'],
        [2.5, 'Granted threads must be a whole number.'],
        [10_001, 'Granted threads must be at most 10,000.'],
        [
          500,
          "Granted threads must be more than the plan's current limit of 500; decline the request instead.",
        ],
      ] as const) {
        const answer = await decide('approve', asked.id, { grantedThreads });
        expect({ grantedThreads, status: answer.status, body: answer.body }).toEqual({
          grantedThreads,
          status: 400,
          body: expect.objectContaining({ error, code: 'VALIDATION_FAILED' }),
        });
      }
      expect((await customerView(customer))[0]?.status).toBe('pending');
      expect(await threadLimitOf(customer.planId)).toBe(500);
    });

    it("raises the plan's limit at once, audits it, mails the customer, who sees the answer", async () => {
      const customer = await createCustomerWithPlan(server, { overrides: { firstName: 'Ada' } });
      const asked = await askFor(customer, 800);
      const mailsBefore = sink.received.length;

      const approved = await decide('approve', asked.id, {
        grantedThreads: 750,
        message: 'Approved 750 for now; ask again when you need more.',
      });
      expect(approved.status).toBe(200);
      expect(approved.body.request).toMatchObject({
        id: asked.id,
        status: 'approved',
        requestedThreads: 800,
        grantedThreads: 750,
        decisionMessage: 'Approved 750 for now; ask again when you need more.',
        decidedByEmail: support.email,
        decidedAt: expect.any(String),
        plan: { id: customer.planId, threadLimit: 750 },
      });

      // The customer's plan and request say so.
      const plan = await server.request<{ threads: number }>(
        'GET',
        `/api/subusers/get?subuser_id=${customer.planId}`,
        { token: customer.token },
      );
      expect(plan.body.threads).toBe(750);
      expect((await customerView(customer))[0]).toMatchObject({
        id: asked.id,
        status: 'approved',
        grantedThreads: 750,
        decisionMessage: 'Approved 750 for now; ask again when you need more.',
      });

      expect(await auditOf(customer.planId, 'thread_request.approve')).toEqual([
        expect.objectContaining({
          actorEmail: support.email,
          targetType: 'plan',
          targetId: customer.planId,
          before: {
            threadLimit: 500,
            status: 'pending',
            requestedThreads: 800,
            userId: customer.userId,
            threadRequestId: asked.id,
          },
          after: { threadLimit: 750, status: 'approved', userId: customer.userId, threadRequestId: asked.id },
          reason: 'Approved 750 for now; ask again when you need more.',
        }),
      ]);

      expect(sink.received.length).toBe(mailsBefore + 1);
      const mail = sink.received.at(-1);
      expect(mail?.rcptTo).toEqual([customer.email]);
      expect(mail?.parsed.subject).toBe(`Thread limit raised: Datacenter (${customer.login})`);
      expect(mail?.parsed.text).toContain(
        `Hello Ada,\n\nWe raised the thread limit of your plan Datacenter (${customer.login}) to 750 concurrent connections.\n\nApproved 750 for now; ask again when you need more.`,
      );
      expect(mail?.parsed.html).toContain('<strong>750 concurrent connections</strong>');

      // Decided once: neither approved again nor declined, and nothing more is sent.
      for (const action of ['approve', 'decline'] as const) {
        const again = await decide(action, asked.id, { message: 'Changed my mind about it.' });
        expect({ action, status: again.status, body: again.body }).toEqual({
          action,
          status: 409,
          body: { error: 'This request was already approved.', code: 'THREAD_REQUEST_CLOSED' },
        });
      }
      expect(sink.received.length).toBe(mailsBefore + 1);
    });

    it("grants what was asked by default, recording the customer's purpose as the reason", async () => {
      const customer = await createCustomerWithPlan(server);
      const asked = await askFor(customer, 1200);
      const approved = await decide('approve', asked.id, {});
      expect(approved.status).toBe(200);
      expect(approved.body.request).toMatchObject({ grantedThreads: 1200, decisionMessage: null });
      expect(await threadLimitOf(customer.planId)).toBe(1200);
      const [entry] = await auditOf(customer.planId, 'thread_request.approve');
      expect(entry?.reason).toBe(`Customer's request: ${PURPOSE}`);
      expect(sink.received.at(-1)?.parsed.text).toContain('to 1200 concurrent connections.\n\n-- \n');
    });

    it('refuses a grant that no longer raises the limit, when staff raised it meanwhile', async () => {
      const customer = await createCustomerWithPlan(server);
      const asked = await askFor(customer, 800);
      const raised = await server.request('POST', `/api/admin/plans/${customer.planId}/threads`, {
        token: support.token,
        body: { threadLimit: 900, reason: 'raised by phone' },
      });
      expect(raised.status).toBe(200);
      const answer = await decide('approve', asked.id, {});
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(
        "Granted threads must be more than the plan's current limit of 900; decline the request instead.",
      );
      expect((await customerView(customer))[0]?.status).toBe('pending');
      expect(await threadLimitOf(customer.planId)).toBe(900);
    });

    it("leaves a staff member's plan to an admin", async () => {
      const staffer = await createCustomerWithPlan(server);
      const asked = await askFor(staffer, 800);
      await setStaffRole(
        { db: server.database.db, config: server.config },
        { email: staffer.email, role: 'support', actor: CLI_ACTOR },
      );
      const refusal = {
        error: 'Only an admin may do this: support cannot act on a staff account',
        code: 'FORBIDDEN',
      };
      for (const action of ['approve', 'decline'] as const) {
        const answer = await decide(action, asked.id, { message: 'Looks fine to me, go.' });
        expect({ action, status: answer.status, body: answer.body }).toEqual({
          action,
          status: 403,
          body: refusal,
        });
      }
      expect(await threadLimitOf(staffer.planId)).toBe(500);
      const byAdmin = await decide('approve', asked.id, {}, admin.token);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.request).toMatchObject({ customer: { isStaff: true }, plan: { threadLimit: 800 } });
    });

    it('keeps the decision when the mail cannot be sent, and says so', async () => {
      const customer = await createCustomerWithPlan(server, { overrides: { email: BOUNCING } });
      const asked = await askFor(customer, 800);
      const answer = await decide('approve', asked.id, {});
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({
        error:
          'The request was approved, but the email to the customer was not sent (the mail server refused the sender or the recipient). They see the answer in their dashboard.',
        code: 'UPSTREAM_UNAVAILABLE',
      });
      expect((await customerView(customer))[0]).toMatchObject({ status: 'approved', grantedThreads: 800 });
      expect(await threadLimitOf(customer.planId)).toBe(800);
    });
  });

  describe('POST /api/admin/thread-requests/:requestId/decline', () => {
    it('needs a message that says why', async () => {
      const customer = await createCustomerWithPlan(server);
      const asked = await askFor(customer, 800);
      for (const [body, error] of [
        [{}, 'Please tell the customer why the request is declined.'],
        [{ message: '   ' }, 'Please tell the customer why the request is declined.'],
        [{ message: 'No.' }, 'The message must be at least 10 characters.'],
        [{ message: 'x'.repeat(2001) }, 'The message must be at most 2,000 characters.'],
      ] as const) {
        const answer = await decide('decline', asked.id, body);
        expect({ body, status: answer.status, answer: answer.body }).toEqual({
          body,
          status: 400,
          answer: { error, code: 'VALIDATION_FAILED' },
        });
      }
      expect((await customerView(customer))[0]?.status).toBe('pending');
    });

    it('keeps the limit, audits, mails the message, shows it to the customer, who may then ask again', async () => {
      const customer = await createCustomerWithPlan(server, { overrides: { firstName: 'Lin' } });
      const asked = await askFor(customer, 5000);
      const message = 'Please tell us which sites you crawl\nand your company website.';
      const declined = await decide('decline', asked.id, { message });
      expect(declined.status).toBe(200);
      expect(declined.body.request).toMatchObject({
        status: 'declined',
        grantedThreads: null,
        decisionMessage: message,
        decidedByEmail: support.email,
        plan: { threadLimit: 500 },
      });
      expect(await threadLimitOf(customer.planId)).toBe(500);
      expect((await customerView(customer))[0]).toMatchObject({
        status: 'declined',
        decisionMessage: message,
      });
      expect(await auditOf(customer.planId, 'thread_request.decline')).toEqual([
        expect.objectContaining({
          actorEmail: support.email,
          targetType: 'plan',
          before: expect.objectContaining({ status: 'pending', requestedThreads: 5000, threadLimit: 500 }),
          after: expect.objectContaining({ status: 'declined', threadLimit: 500 }),
          reason: message,
        }),
      ]);
      const mail = sink.received.at(-1);
      expect(mail?.rcptTo).toEqual([customer.email]);
      expect(mail?.parsed.subject).toBe(`Thread limit request declined: Datacenter (${customer.login})`);
      expect(mail?.parsed.text).toContain(
        `Hello Lin,\n\nWe could not raise the thread limit of your plan Datacenter (${customer.login}); it stays at 500 concurrent connections.\n\n${message}`,
      );
      expect(mail?.parsed.html).toContain('Please tell us which sites you crawl<br>');
      // The customer answers with a new request.
      await askFor(customer, 2000);
    });
  });
});
