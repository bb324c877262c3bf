import { createHash, randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { relayLimits } from '../tunnel/relay.ts';

// Large response bodies through the forward path, which reads its target connections into reused
// memory (relay.ts) and writes the body on from it: every byte intact for clients that keep pausing,
// on kept-alive connections, for both framings, billed to the byte. (A target connection handed on
// while a write still holds that memory: relay.socket.test.ts.)

const plan: PlanAccess = {
  planId: 'plan-fw-bulk',
  login: 'bgfwbulk01',
  password: 'Secret123',
  poolType: 'datacenter',
  threadLimit: 100,
  trafficLeftBytes: 100 * 1024 ** 3,
  isActive: true,
};
const auth = `Proxy-Authorization: Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`;
const BODY = randomBytes(24 * 1024 * 1024);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let origin: HttpServer;
let originPort: number;
let gateway: Gateway;
let proxyPort: number;

beforeAll(async () => {
  // /length/N: the first N bytes of BODY with a Content-Length; /chunked/N: the same, chunked.
  origin = createHttpServer((request, response) => {
    const [, framing, size] = /^\/(length|chunked)\/(\d+)$/.exec(request.url ?? '') ?? [];
    const body = BODY.subarray(0, Number(size));
    if (framing === 'length') {
      response.setHeader('Content-Length', body.length);
    }
    // Written in pieces of uneven size, as a real server's reads from disk or upstream come.
    let at = 0;
    const pump = () => {
      while (at < body.length) {
        const piece = body.subarray(at, at + 100_000 + (at % 77_777));
        at += piece.length;
        if (!response.write(piece)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end();
    };
    pump();
  });
  origin.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addExit({ id: 'exit-1', kind: 'direct', poolType: 'datacenter', country: 'US', isRisky: false });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
  });
  proxyPort = (await gateway.listen()).httpPort;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

/** A kept-alive client connection that reads answers whole, pausing now and then when `slow`. */
class Client {
  readonly socket: Socket = connect(proxyPort, '127.0.0.1');
  /** What arrived and is not yet part of an answer read: pieces, joined only once an answer is whole. */
  private pieces: Buffer[] = [];
  private total = 0;
  private reads = 0;
  private waiting: (() => void) | null = null;

  constructor(private readonly slow: boolean) {
    this.socket.on('data', (chunk: Buffer) => {
      this.pieces.push(chunk);
      this.total += chunk.length;
      // A slow client stops now and then (every 64th read, for 20 ms), as the relay's tests do.
      this.reads += 1;
      if (this.slow && this.reads % 64 === 0) {
        this.socket.pause();
        setTimeout(() => this.socket.resume(), 20);
      }
      this.waiting?.();
    });
  }

  private async until(ready: () => boolean): Promise<void> {
    while (!ready()) {
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
    this.waiting = null;
  }

  private joined(): Buffer {
    const all = Buffer.concat(this.pieces);
    this.pieces = [all];
    return all;
  }

  /** The last `n` bytes received (n small). */
  private tail(n: number): string {
    const last = this.pieces.slice(-4);
    return Buffer.concat(last).subarray(-n).toString('latin1');
  }

  /** GET through the proxy; answers the body (the chunked framing decoded) and the bytes on the wire. */
  async get(path: string): Promise<{ body: Buffer; wire: number }> {
    const request = `GET http://127.0.0.1:${originPort}${path} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n${auth}\r\n\r\n`;
    this.socket.write(request);
    await this.until(() => this.total > 0 && this.joined().includes('\r\n\r\n'));
    const start = this.joined();
    const headEnd = start.indexOf('\r\n\r\n') + 4;
    const head = start.subarray(0, headEnd).toString('latin1');
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    const length = /content-length: (\d+)/i.exec(head)?.[1];
    let body: Buffer;
    let end: number;
    if (length !== undefined) {
      end = headEnd + Number(length);
      await this.until(() => this.total >= end);
      const all = this.joined();
      body = Buffer.from(all.subarray(headEnd, end));
    } else {
      // The origin sends no trailers: the answer is whole once the stream ends in the last chunk.
      await this.until(() => this.tail(7) === '\r\n0\r\n\r\n');
      const all = this.joined();
      const decoded: Buffer[] = [];
      let at = headEnd;
      for (;;) {
        const lineEnd = all.indexOf('\r\n', at);
        const size = Number.parseInt(all.subarray(at, lineEnd).toString('latin1'), 16);
        decoded.push(all.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
        if (size === 0) {
          break;
        }
      }
      body = Buffer.concat(decoded);
      end = at;
    }
    const rest = this.joined().subarray(end);
    this.pieces = rest.length > 0 ? [rest] : [];
    this.total = rest.length;
    return { body, wire: Buffer.byteLength(request) + end };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
    });
  }
}

describe.each([
  ['own buffers from the pool', 64],
  ['only the shared buffer (the pool is used up)', 0],
])('forward bodies of many MiB: %s', (_, maxOwnBuffers) => {
  it('arrive intact for slow and fast clients at once, in both framings, kept alive, billed to the byte', async () => {
    const defaultLimit = relayLimits.maxOwnBuffers;
    relayLimits.maxOwnBuffers = maxOwnBuffers;
    try {
      gateway.meter.drain();
      const clients = Array.from({ length: 6 }, (_, i) => new Client(i % 2 === 0));
      let wire = 0;
      await Promise.all(
        clients.map(async (client, i) => {
          for (const path of [`/length/${BODY.length}`, `/chunked/${BODY.length - i}`, '/length/1000']) {
            const answer = await client.get(path);
            const size = Number(path.split('/').at(-1));
            expect(answer.body.length).toBe(size);
            expect(sha256(answer.body)).toBe(sha256(BODY.subarray(0, size)));
            wire += answer.wire;
          }
        }),
      );
      await Promise.all(clients.map((client) => client.close()));
      await expect.poll(() => gateway.threads.count(plan.planId)).toBe(0);
      expect(gateway.meter.drain().get(plan.planId)?.bytes).toBe(wire);
    } finally {
      relayLimits.maxOwnBuffers = defaultLimit;
    }
  });
});
