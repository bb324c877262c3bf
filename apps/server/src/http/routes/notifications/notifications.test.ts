import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  NotificationSettings,
  WebhookDeliveriesResponse,
  WebhookDelivery,
} from '@bytegate/contracts/notifications';
import { NOTIFICATION_KINDS } from '@bytegate/contracts/notifications';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../../mail/mailer.ts';
import { createRecordingLog } from '../../../mail/testing/recording-log.ts';
import { type SmtpSink, startSmtpSink } from '../../../mail/testing/smtp-sink.ts';
import type { MailContext } from '../../../services/context.ts';
import { deliverDueWebhooks } from '../../../services/notifications/deliver-webhooks.ts';
import { dispatchNotifications } from '../../../services/notifications/dispatch-notifications.ts';
import { isSignatureValid } from '../../../services/notifications/webhook-signature.ts';
import { createCustomerWithPlan } from '../../../testing/staff.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testing/webhook-receiver.ts';

type Answer<T> = T & { error?: string; code?: string };

describe.each(testDatabaseKinds())('notification settings and webhooks on %s', (kind) => {
  let server: TestServer;
  let smtp: SmtpSink;
  let receiver: WebhookReceiver;
  let ctx: MailContext;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer(kind, {
      mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'Bytegate <no-reply@example.com>' },
    });
    receiver = await startWebhookReceiver();
    ctx = {
      db: server.database.db,
      config: server.config,
      mailer: createMailer(server.config, createRecordingLog()),
    };
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    server.config.webhooks.allowPrivateTargets = true;
    receiver.answerWith([200], '{"ok":true}');
  });

  const settings = (token: string) =>
    server.request<Answer<NotificationSettings>>('GET', '/api/notifications/settings', { token });
  const update = (token: string, body: unknown) =>
    server.request<Answer<NotificationSettings>>('PUT', '/api/notifications/settings', { token, body });
  const setWebhook = (token: string, url: string) =>
    server.request<Answer<NotificationSettings>>('PUT', '/api/notifications/webhook', {
      token,
      body: { url },
    });
  const sendTest = (token: string) =>
    server.request<Answer<WebhookDelivery>>('POST', '/api/notifications/webhook/test', { token, body: {} });
  const deliveries = (token: string, cursor?: string) =>
    server.request<Answer<WebhookDeliveriesResponse>>(
      'GET',
      `/api/notifications/webhook/deliveries${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );

  describe('GET and PUT /api/notifications/settings', () => {
    it('answers 401 without a session', async () => {
      expect((await server.request('GET', '/api/notifications/settings')).status).toBe(401);
      expect((await server.request('PUT', '/api/notifications/settings', { body: {} })).status).toBe(401);
    });

    it('starts with every kind by email and by webhook, no low-balance amount and no webhook', async () => {
      const { token } = await createUserViaApi(server);
      const answer = await settings(token);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        emailKinds: [...NOTIFICATION_KINDS],
        webhookKinds: [...NOTIFICATION_KINDS],
        lowBalanceThresholdUsd: null,
        webhook: null,
      });
    });

    it('refuses unknown kinds and a bad low-balance amount, naming the problem, and changes nothing', async () => {
      const { token } = await createUserViaApi(server);
      const cases: Array<[unknown, string]> = [
        [{ emailKinds: ['low_traffic', 'spam'] }, `Kinds must be among ${NOTIFICATION_KINDS.join(', ')}.`],
        [{ webhookKinds: ['test'] }, `Kinds must be among ${NOTIFICATION_KINDS.join(', ')}.`],
        [
          { lowBalanceThresholdUsd: 0 },
          'The low-balance amount is a dollar figure above 0 and at most $1,000,000, with up to 2 decimals.',
        ],
        [
          { lowBalanceThresholdUsd: -5 },
          'The low-balance amount is a dollar figure above 0 and at most $1,000,000, with up to 2 decimals.',
        ],
        [
          { lowBalanceThresholdUsd: 10.005 },
          'The low-balance amount is a dollar figure above 0 and at most $1,000,000, with up to 2 decimals.',
        ],
        [
          { lowBalanceThresholdUsd: '10' },
          'The low-balance amount is a dollar figure above 0 and at most $1,000,000, with up to 2 decimals.',
        ],
      ];
      for (const [body, error] of cases) {
        const answer = await update(token, body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body, JSON.stringify(body)).toMatchObject({ code: 'VALIDATION_FAILED', error });
      }
      expect((await settings(token)).body.lowBalanceThresholdUsd).toBeNull();
    });

    it('saves the kinds (each once, in order) and the low-balance amount, and clears the amount with null', async () => {
      const { token } = await createUserViaApi(server);
      const saved = await update(token, {
        emailKinds: ['new_sign_in', 'low_traffic', 'low_traffic'],
        webhookKinds: [],
        lowBalanceThresholdUsd: 12.5,
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        emailKinds: ['low_traffic', 'new_sign_in'],
        webhookKinds: [],
        lowBalanceThresholdUsd: 12.5,
      });
      expect((await settings(token)).body).toMatchObject({ emailKinds: ['low_traffic', 'new_sign_in'] });
      // A field left out stays as it is.
      expect((await update(token, { lowBalanceThresholdUsd: null })).body).toMatchObject({
        emailKinds: ['low_traffic', 'new_sign_in'],
        lowBalanceThresholdUsd: null,
      });
    });
  });

  describe('PUT /api/notifications/webhook', () => {
    it('refuses addresses that are not http(s), carry credentials, do not resolve, or lead inside our network', async () => {
      const { token } = await createUserViaApi(server);
      const cases: Array<[string, string]> = [
        [
          'ftp://example.com/hook',
          'Enter the full address of your endpoint, starting with https:// (or http://).',
        ],
        ['example.com/hook', 'Enter the full address of your endpoint, starting with https:// (or http://).'],
        [
          'https://user:secret@example.com/hook',
          'Leave user names and passwords out of the address: every delivery is signed instead.',
        ],
        [`https://x.example/${'a'.repeat(2048)}`, 'The address must be at most 2048 characters.'],
        ['https://no-such-host.invalid/hook', 'This host name cannot be resolved: check the address.'],
      ];
      for (const [url, error] of cases) {
        const answer = await setWebhook(token, url);
        expect(answer.status, url).toBe(400);
        expect(answer.body, url).toMatchObject({ code: 'VALIDATION_FAILED', error });
      }
      server.config.webhooks.allowPrivateTargets = false;
      for (const url of [
        receiver.url,
        'http://localhost:9/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/x',
        'http://10.1.2.3/x',
      ]) {
        const answer = await setWebhook(token, url);
        expect(answer.status, url).toBe(400);
        expect(answer.body.error, url).toBe(
          'This address leads to a private, loopback or link-local network, which webhooks cannot reach.',
        );
      }
      expect((await settings(token)).body.webhook).toBeNull();
    });

    it('sets the address with a signing secret kept when the address changes, rotates it, and removes both', async () => {
      const { token } = await createUserViaApi(server);
      const set = await setWebhook(token, receiver.url);
      expect(set.status).toBe(200);
      const secret = set.body.webhook?.secret ?? '';
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const moved = await setWebhook(token, `${receiver.url}?v=2`);
      expect(moved.body.webhook).toEqual({ url: `${receiver.url}?v=2`, secret });
      const rotated = await server.request<Answer<NotificationSettings>>(
        'POST',
        '/api/notifications/webhook/rotate-secret',
        { token, body: {} },
      );
      expect(rotated.status).toBe(200);
      expect(rotated.body.webhook?.secret).toMatch(/^whsec_/);
      expect(rotated.body.webhook?.secret).not.toBe(secret);
      const removed = await server.request<Answer<NotificationSettings>>(
        'DELETE',
        '/api/notifications/webhook',
        { token },
      );
      expect(removed.body.webhook).toBeNull();
      const again = await server.request<Answer<unknown>>(
        'POST',
        '/api/notifications/webhook/rotate-secret',
        { token, body: {} },
      );
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: 'Set a webhook URL first.' });
    });
  });

  describe('POST /api/notifications/webhook/test', () => {
    it('POSTs a signed test event the documented check accepts, and answers the receiver’s answer', async () => {
      const { token } = await createUserViaApi(server);
      expect((await sendTest(token)).status).toBe(409);
      const secret = (await setWebhook(token, receiver.url)).body.webhook?.secret ?? '';
      const before = receiver.received.length;
      receiver.answerWith([200], '{"received":true}');
      const answer = await sendTest(token);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        kind: 'test',
        status: 'delivered',
        url: receiver.url,
        nextAttemptAt: null,
      });
      expect(answer.body.attempts).toEqual([
        expect.objectContaining({ statusCode: 200, responseBody: '{"received":true}', error: null }),
      ]);
      const got = receiver.received.slice(before);
      expect(got).toHaveLength(1);
      const [request] = got;
      const payload = JSON.parse(request?.body ?? '{}');
      expect(payload).toMatchObject({
        type: 'test',
        data: { message: expect.stringContaining('test event') },
      });
      expect(payload.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(request?.headers['content-type']).toBe('application/json');
      expect(request?.headers['bytegate-event']).toBe('test');
      expect(request?.headers['bytegate-delivery']).toBe(answer.body.id);
      const header = request?.headers['bytegate-signature'] as string;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const nowSeconds = Math.floor(Date.now() / 1000);
      expect(isSignatureValid({ secret, header, body: request?.body ?? '', nowSeconds })).toBe(true);
      // Any other secret, body or a time far from the signature's fails the check.
      expect(isSignatureValid({ secret: `${secret}x`, header, body: request?.body ?? '', nowSeconds })).toBe(
        false,
      );
      expect(isSignatureValid({ secret, header, body: `${request?.body} `, nowSeconds })).toBe(false);
      expect(
        isSignatureValid({ secret, header, body: request?.body ?? '', nowSeconds: nowSeconds + 301 }),
      ).toBe(false);
    });

    it('shows a failed test with the receiver’s status and body, and never retries it', async () => {
      const { token } = await createUserViaApi(server);
      await setWebhook(token, receiver.url);
      receiver.answerWith([500], 'boom');
      const answer = await sendTest(token);
      expect(answer.body).toMatchObject({ status: 'failed', nextAttemptAt: null });
      expect(answer.body.attempts).toEqual([
        expect.objectContaining({
          statusCode: 500,
          responseBody: 'boom',
          error: 'Answered 500: only a 2xx counts as delivered.',
        }),
      ]);
      // A receiver that went away: the error in words.
      await setWebhook(token, 'http://127.0.0.1:9/closed');
      const refused = await sendTest(token);
      expect(refused.body.attempts[0]).toMatchObject({
        statusCode: null,
        error: 'The connection was refused.',
      });
    });

    it('POSTs a test event once, though a jobs pass runs while the receiver is still answering it', async () => {
      const { token } = await createUserViaApi(server);
      const slow = await startHeldReceiver();
      try {
        await setWebhook(token, slow.url);
        const answering = sendTest(token);
        await slow.firstArrived;
        // The route's POST waits for its answer: the jobs' pass leaves the test delivery alone.
        await deliverDueWebhooks(ctx);
        slow.release();
        const answer = await answering;
        expect(answer.body).toMatchObject({ kind: 'test', status: 'delivered' });
        expect(answer.body.attempts).toHaveLength(1);
        expect(slow.bodies).toHaveLength(1);
        // Nor does a pass after it.
        await deliverDueWebhooks(ctx);
        expect(slow.bodies).toHaveLength(1);
        const [logged] = (await deliveries(token)).body.deliveries;
        expect(logged?.attempts).toHaveLength(1);
      } finally {
        slow.release();
        await slow.close();
      }
    });

    it('limits each customer to 20 webhook tests and address changes an hour', async () => {
      const { token } = await createUserViaApi(server);
      await setWebhook(token, receiver.url);
      let last = 0;
      for (let i = 0; i < 20; i++) {
        last = (await sendTest(token)).status;
      }
      expect(last).toBe(429);
      const limited = await sendTest(token);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });

  describe('notifications by email and webhook, with retries', () => {
    /** A customer with a plan whose first purchase's notification is already handed out. */
    async function customerWithPlan() {
      const customer = await createCustomerWithPlan(server);
      await dispatchNotifications(ctx);
      await deliverDueWebhooks(ctx);
      return customer;
    }

    it('mails a purchase and POSTs it to the webhook; a kind not chosen for a channel skips it', async () => {
      const customer = await customerWithPlan();
      await setWebhook(customer.token, receiver.url);
      await update(customer.token, {
        emailKinds: ['purchase_completed'],
        webhookKinds: ['purchase_completed'],
      });
      const mailsBefore = smtp.received.length;
      const postsBefore = receiver.received.length;
      const bought = await server.request('POST', '/api/subuser/create', {
        token: customer.token,
        body: { pool_type: 'residential', default_pool_parameters: { quantity: 5 } },
      });
      expect(bought.status).toBe(201);
      await dispatchNotifications(ctx);
      await deliverDueWebhooks(ctx);
      const mails = smtp.received.slice(mailsBefore).filter((mail) => mail.rcptTo.includes(customer.email));
      expect(mails.map((mail) => mail.parsed.subject)).toEqual([
        'Purchase done: 5 GB of Residential traffic',
      ]);
      expect(mails[0]?.parsed.text).toContain('for $9.95');
      const posts = receiver.received.slice(postsBefore).map((post) => JSON.parse(post.body));
      expect(posts).toEqual([
        expect.objectContaining({
          type: 'purchase_completed',
          data: expect.objectContaining({ pool_type: 'residential', quantity_gb: 5, amount_usd: 9.95 }),
        }),
      ]);
      // Not chosen for email: a webhook only.
      await update(customer.token, { emailKinds: [] });
      await server.request('POST', '/api/subuser/create', {
        token: customer.token,
        body: { pool_type: 'residential', default_pool_parameters: { quantity: 5 } },
      });
      await dispatchNotifications(ctx);
      await deliverDueWebhooks(ctx);
      expect(
        smtp.received.slice(mailsBefore).filter((mail) => mail.rcptTo.includes(customer.email)),
      ).toHaveLength(1);
      expect(receiver.received.length - postsBefore).toBe(2);
      const [row] = await queryRows<{ mail_status: string }>(
        server,
        `select mail_status from notifications where user_id = (select id from users where email = '${customer.email}') order by created_at desc limit 1`,
      );
      expect(row?.mail_status).toBe('skipped');
    });

    it('retries a failed delivery on the schedule until a 2xx, logging every attempt, and gives up after 24 hours', async () => {
      const customer = await customerWithPlan();
      await setWebhook(customer.token, receiver.url);
      receiver.answerWith([503, 200]);
      await server.request('POST', '/api/subuser/create', {
        token: customer.token,
        body: { pool_type: 'mobile', default_pool_parameters: { quantity: 5 } },
      });
      await dispatchNotifications(ctx);
      const firstPass = Date.now();
      await deliverDueWebhooks(ctx);
      let log = (await deliveries(customer.token)).body.deliveries;
      const delivery = log.find(
        (one) =>
          one.kind === 'purchase_completed' &&
          one.payload.data &&
          (one.payload.data as { pool_type: string }).pool_type === 'mobile',
      );
      expect(delivery).toMatchObject({ status: 'pending' });
      // The first retry waits a minute.
      const wait = Date.parse(delivery?.nextAttemptAt ?? '') - firstPass;
      expect(wait).toBeGreaterThan(55_000);
      expect(wait).toBeLessThan(65_000);
      // Nothing is due yet; then the minute passes.
      expect(await deliverDueWebhooks(ctx)).toBe(0);
      await server.database.db.execute(
        `update webhook_deliveries set next_attempt_at = now() - interval '1 second' where id = '${delivery?.id}'`,
      );
      expect(await deliverDueWebhooks(ctx)).toBe(1);
      log = (await deliveries(customer.token)).body.deliveries;
      const done = log.find((one) => one.id === delivery?.id);
      expect(done?.status).toBe('delivered');
      expect(done?.attempts.map((attempt) => attempt.statusCode)).toEqual([503, 200]);
      // A delivery failing past its 24 hours is given up.
      receiver.answerWith([500]);
      await server.request('POST', '/api/subuser/create', {
        token: customer.token,
        body: { pool_type: 'mobile', default_pool_parameters: { quantity: 5 } },
      });
      await dispatchNotifications(ctx);
      const [late] = await queryRows<{ id: string }>(
        server,
        `select d.id from webhook_deliveries d where d.status = 'pending' and d.user_id = (select id from users where email = '${customer.email}')`,
      );
      await server.database.db.execute(
        `update webhook_deliveries set created_at = now() - interval '25 hours', next_attempt_at = now() - interval '1 second' where id = '${late?.id}'`,
      );
      await deliverDueWebhooks(ctx);
      const gaveUp = (await deliveries(customer.token)).body.deliveries.find((one) => one.id === late?.id);
      expect(gaveUp).toMatchObject({ status: 'failed', nextAttemptAt: null });
    });

    it('pages the delivery log by cursor, newest first, each delivery once', async () => {
      const { token } = await createUserViaApi(server);
      await setWebhook(token, receiver.url);
      // Tests count against the hourly limit: the log is filled from the jobs' side instead.
      const [user] = await queryRows<{ id: string }>(
        server,
        `select id from users order by created_at desc limit 1`,
      );
      for (let i = 0; i < 25; i++) {
        await server.database.db.execute(
          `with n as (insert into notifications (user_id, kind, payload, dispatched_at, mail_status) values ('${user?.id}', 'low_balance', '{"balance_usd":1,"threshold_usd":5}', now(), 'skipped') returning id, created_at)
           insert into webhook_deliveries (notification_id, user_id, url, created_at) select id, '${user?.id}', '${receiver.url}', created_at + (${i} || ' milliseconds')::interval from n`,
        );
      }
      const first = await deliveries(token);
      expect(first.body.deliveries).toHaveLength(20);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await deliveries(token, first.body.nextCursor ?? '');
      expect(second.body.deliveries).toHaveLength(5);
      expect(second.body.nextCursor).toBeNull();
      const ids = [...first.body.deliveries, ...second.body.deliveries].map((one) => one.id);
      expect(new Set(ids).size).toBe(25);
      const times = [...first.body.deliveries, ...second.body.deliveries].map((one) =>
        Date.parse(one.createdAt),
      );
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const bad = await deliveries(token, 'not-a-cursor');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    });
  });
});

/** A webhook endpoint that holds its first answer until `release()`, and answers any other at once. */
async function startHeldReceiver() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrive = () => {};
  const firstArrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const bodies: string[] = [];
  const endpoint = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      if (bodies.length === 1) {
        arrive();
        await held;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const { port } = endpoint.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    bodies,
    firstArrived,
    release: () => release(),
    close: () => new Promise<void>((resolve) => endpoint.close(() => resolve())),
  };
}
