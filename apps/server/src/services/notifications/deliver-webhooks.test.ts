import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createWebhookDelivery, insertNotification } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundJobs } from '../../jobs/background-jobs.ts';
import { startJobs } from '../../jobs/scheduler.ts';
import { createMailer } from '../../mail/mailer.ts';
import { createRecordingLog } from '../../mail/testing/recording-log.ts';
import { createUserViaApi, queryRows, startTestServer, type TestServer } from '../../testing/test-server.ts';
import type { MailContext } from '../context.ts';
import { deliverDueWebhooks, WebhookDispatcher } from './deliver-webhooks.ts';

/** A receiver on 127.0.0.1 that keeps the order POSTs came in and how many it held at once. */
async function startReceiver(answer: (request: IncomingMessage, socket: Socket) => void) {
  const sockets = new Set<Socket>();
  const seen: Array<{ id: string; at: number }> = [];
  let open = 0;
  let maxOpen = 0;
  const server: Server = createServer((request) => {
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    request.socket.on('close', () => {
      open -= 1;
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ id: (JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id, at: Date.now() });
      answer(request, request.socket);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    seen,
    maxOpen: () => maxOpen,
    close: async () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Answers 200 at once, or after `delayMs`. */
const answerOk =
  (delayMs = 0) =>
  (_request: IncomingMessage, socket: Socket) =>
    setTimeout(
      () => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok'),
      delayMs,
    );

/** A status line, then one body byte every 300 ms, for as long as the socket stays open. */
const answerDripping = (_request: IncomingMessage, socket: Socket) => {
  socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n');
  const timer = setInterval(() => socket.write('x'), 300);
  socket.on('close', () => clearInterval(timer));
};

const waitFor = async (isDone: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!isDone() && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return isDone();
};

describe.each(testDatabaseKinds())('webhook queues, one per account, on %s', (kind) => {
  let server: TestServer;
  let ctx: MailContext;
  beforeAll(async () => {
    server = await startTestServer(kind);
    server.config.webhooks.allowPrivateTargets = true;
    ctx = {
      db: server.database.db,
      config: server.config,
      mailer: createMailer(server.config, createRecordingLog()),
    };
  });
  afterAll(async () => {
    await server?.close();
  });

  /** An account whose webhook is `url`, and a way to queue an event for it now. */
  async function accountWithWebhook(url: string) {
    const { token, email } = await createUserViaApi(server);
    const set = await server.request('PUT', '/api/notifications/webhook', { token, body: { url } });
    expect(set.status).toBe(200);
    const [user] = await queryRows<{ id: string }>(server, `select id from users where email = '${email}'`);
    const userId = user?.id ?? '';
    return {
      userId,
      queue: async () => {
        const notification = await insertNotification(ctx.db, {
          userId,
          kind: 'test',
          payload: {},
          dispatchedAt: new Date(),
          mailStatus: 'skipped',
        });
        await createWebhookDelivery(ctx.db, { notificationId: notification.id, userId, url });
        return notification.id;
      },
    };
  }

  it("a receiver dripping its answer holds nobody else's delivery: the healthy one's event arrives within 2 s", async () => {
    const dripping = await startReceiver(answerDripping);
    const healthy = await startReceiver(answerOk());
    const slow = await accountWithWebhook(dripping.url);
    const fine = await accountWithWebhook(healthy.url);
    // The jobs' own webhook job, ticking faster than its 2 s so the test is quick.
    const job = backgroundJobs(ctx, server.payments).find((one) => one.name === 'deliver-webhooks');
    if (!job) {
      throw new Error('no deliver-webhooks job');
    }
    const stop = startJobs([{ ...job, everyMs: 200 }], server.app.log);
    try {
      await slow.queue();
      expect(await waitFor(() => dripping.seen.length === 1, 5000)).toBe(true);
      const queuedAt = Date.now();
      const id = await fine.queue();
      expect(await waitFor(() => healthy.seen.some((one) => one.id === id), 2000)).toBe(true);
      expect((healthy.seen[0]?.at ?? Infinity) - queuedAt).toBeLessThan(2000);
    } finally {
      stop();
      await dripping.close();
      await healthy.close();
    }
    // The dripping delivery ends (cut here by its receiver going) and is recorded before the test ends.
    const attemptsOfSlow = async () =>
      (
        await queryRows<{ attempts: number }>(
          server,
          `select attempts from webhook_deliveries where user_id = '${slow.userId}'`,
        )
      )[0]?.attempts;
    for (let i = 0; i < 100 && (await attemptsOfSlow()) !== 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await attemptsOfSlow()).toBe(1);
  });

  it("an account's events go one at a time, in order; different accounts' at once, within the bound", async () => {
    const receiver = await startReceiver(answerOk(150));
    try {
      const one = await accountWithWebhook(receiver.url);
      const ids = [await one.queue(), await one.queue(), await one.queue()];
      expect(await deliverDueWebhooks(ctx)).toBe(3);
      expect(receiver.seen.map((post) => post.id)).toEqual(ids);
      expect(receiver.maxOpen()).toBe(1);

      // Four accounts, two slots: never more than two POSTs at once, and all four delivered.
      const others = await Promise.all([1, 2, 3, 4].map(() => accountWithWebhook(receiver.url)));
      for (const other of others) {
        await other.queue();
      }
      const dispatcher = new WebhookDispatcher(ctx, { concurrency: 2 });
      await dispatcher.pump();
      await dispatcher.idle();
      expect(dispatcher.startedCount).toBe(4);
      expect(receiver.seen).toHaveLength(7);
      expect(receiver.maxOpen()).toBe(2);
    } finally {
      await receiver.close();
    }
  });
});
