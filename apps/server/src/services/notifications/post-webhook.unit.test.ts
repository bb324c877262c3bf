import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postWebhook, WEBHOOK_TIMEOUT_MS } from './post-webhook.ts';

/** A receiver on 127.0.0.1 that answers through `answer`, and closes every socket it was given. */
async function startReceiver(answer: (socket: Socket) => void): Promise<{ url: string; close: () => void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('request', (request) => {
    request.resume();
    request.on('end', () => answer(request.socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      server.close();
    },
  };
}

/** Writes `head` at once, then one byte every 300 ms until the socket closes: never idle for long. */
function drip(socket: Socket, head: string): void {
  socket.write(head);
  const timer = setInterval(() => socket.write('x'), 300);
  socket.on('close', () => clearInterval(timer));
}

const post = (url: string, timeoutMs: number) =>
  postWebhook({
    url,
    body: '{}',
    headers: { 'content-type': 'application/json' },
    allowPrivateTargets: true,
    timeoutMs,
  });

/** The POST, or 'still going' after `ms` (so a deadline that does not hold fails quickly). */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<'still going'>((resolve) => setTimeout(() => resolve('still going'), ms)),
  ]);

describe('postWebhook: one deadline for the whole exchange, not an idle timeout', () => {
  let close = () => {};
  afterEach(() => close());

  it('is 10 s by default', () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
  });

  it('cuts a receiver that drips its body a byte every 300 ms at the deadline (1 s here)', async () => {
    const receiver = await startReceiver((socket) =>
      drip(socket, 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 100000\r\n\r\nok'),
    );
    close = receiver.close;
    const started = performance.now();
    const result = await within(post(receiver.url, 1000), 4000);
    const elapsedMs = performance.now() - started;
    expect(result).toMatchObject({ statusCode: 200, error: 'The answer did not finish within 1 s.' });
    expect(elapsedMs).toBeGreaterThanOrEqual(950);
    expect(elapsedMs).toBeLessThan(1800);
  });

  it('cuts a receiver that drips its headers a byte every 300 ms at the deadline', async () => {
    const receiver = await startReceiver((socket) => drip(socket, 'HTTP/1.1 200 OK\r\nx-slow: '));
    close = receiver.close;
    const started = performance.now();
    const result = await within(post(receiver.url, 1000), 4000);
    expect(result).toMatchObject({ statusCode: null, responseBody: null, error: 'No answer within 1 s.' });
    expect(performance.now() - started).toBeLessThan(1800);
  });

  it('a whole answer within the deadline is delivered, its body kept to 2 KiB', async () => {
    const receiver = await startReceiver((socket) =>
      socket.end(`HTTP/1.1 200 OK\r\ncontent-length: 5000\r\nconnection: close\r\n\r\n${'y'.repeat(5000)}`),
    );
    close = receiver.close;
    const result = await post(receiver.url, 1000);
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(result.responseBody).toHaveLength(2048);
  });
});
