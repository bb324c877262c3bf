import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';

// Billing on connections that live across requests and plans: every request's bytes go to that
// request's plan and 2x, exactly, however the client keeps its connection alive.

const planA: PlanAccess = {
  planId: 'plan-a',
  login: 'bgbillinga1',
  password: 'SecretA123',
  poolType: 'datacenter',
  threadLimit: 10,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const planB: PlanAccess = { ...planA, planId: 'plan-b', login: 'bgbillingb1', password: 'SecretB123' };

let origin: Server;
let originPort: number;
let gateway: Gateway;
let proxyPort: number;

const basic = (login: string, password: string) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

beforeAll(async () => {
  // Answers `GET /<n>` with n bytes, keeping the connection alive.
  origin = createServer((socket) => {
    let buffered = '';
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end !== -1; end = buffered.indexOf('\r\n\r\n')) {
        const size = Number(buffered.split(' ')[1]?.slice(1) ?? 0);
        buffered = buffered.slice(end + 4);
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${size}\r\n\r\n${'b'.repeat(size)}`);
      }
    });
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  const exit = { kind: 'direct', poolType: 'datacenter', isRisky: false, localAddress: '127.0.0.2' } as const;
  const store = new InMemoryGatewayStore()
    .addPlan(planA)
    .addPlan(planB)
    .addExit({ ...exit, id: 'de-by', country: 'DE', state: 'bavaria' })
    .addExit({ ...exit, id: 'us', country: 'US' });
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

/** A kept-alive client connection that counts exactly the bytes each request and its answer carried. */
class Client {
  readonly socket: Socket;
  private received = Buffer.alloc(0);
  private waiting: (() => void) | null = null;

  constructor() {
    this.socket = connect(proxyPort, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.waiting?.();
    });
  }

  private request(authorization: string, size: number): string {
    return `GET http://127.0.0.1:${originPort}/${size} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\nProxy-Authorization: ${authorization}\r\n\r\n`;
  }

  /** Reads one whole answer off the front of what arrived; its length in bytes. */
  private async answer(): Promise<number> {
    for (;;) {
      const end = this.received.indexOf('\r\n\r\n');
      if (end !== -1) {
        const head = this.received.toString('latin1', 0, end);
        const length = Number(/Content-Length: (\d+)/i.exec(head)?.[1] ?? 0);
        const total = end + 4 + length;
        if (this.received.length >= total) {
          this.received = this.received.subarray(total);
          expect(head.startsWith('HTTP/1.1 200')).toBe(true);
          return total;
        }
      }
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }

  /** Requests one after another: each one's bytes (request and answer). */
  async send(authorization: string, size: number): Promise<number> {
    const request = this.request(authorization, size);
    this.socket.write(request);
    return Buffer.byteLength(request) + (await this.answer());
  }

  /** Two requests in one write (pipelined): each one's bytes. */
  async pipeline(first: [string, number], second: [string, number]): Promise<[number, number]> {
    const a = this.request(...first);
    const b = this.request(...second);
    this.socket.write(a + b);
    return [Buffer.byteLength(a) + (await this.answer()), Buffer.byteLength(b) + (await this.answer())];
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
    });
  }
}

/** What the meter holds for each plan once the gateway saw the client close (which samples the socket). */
async function billed(): Promise<Record<string, { bytes: number; extraBytes: number; requests: number }>> {
  await expect.poll(() => gateway.threads.count(planA.planId) + gateway.threads.count(planB.planId)).toBe(0);
  const drained = gateway.meter.drain();
  const out: Record<string, { bytes: number; extraBytes: number; requests: number }> = {};
  for (const [planId, usage] of drained) {
    out[planId] = { bytes: usage.bytes, extraBytes: usage.extraBytes, requests: usage.requests };
  }
  return out;
}

describe('billing a kept-alive connection', () => {
  it('bills each request to its own plan when the credentials change, and moves the thread slot', async () => {
    gateway.meter.drain();
    const client = new Client();
    const a = await client.send(basic(planA.login, planA.password), 1000);
    expect(gateway.threads.count(planA.planId)).toBe(1);
    let b = 0;
    for (let i = 0; i < 10; i++) {
      b += await client.send(basic(planB.login, planB.password), 100_000);
    }
    expect(gateway.threads.count(planA.planId)).toBe(0);
    expect(gateway.threads.count(planB.planId)).toBe(1);
    await client.close();
    expect(await billed()).toEqual({
      [planA.planId]: { bytes: a, extraBytes: 0, requests: 1 },
      [planB.planId]: { bytes: b, extraBytes: 0, requests: 10 },
    });
  });

  it('bills pipelined requests of two plans each to its own', async () => {
    gateway.meter.drain();
    const client = new Client();
    const [a, b] = await client.pipeline(
      [basic(planA.login, planA.password), 5000],
      [basic(planB.login, planB.password), 7000],
    );
    await client.close();
    expect(await billed()).toEqual({
      [planA.planId]: { bytes: a, extraBytes: 0, requests: 1 },
      [planB.planId]: { bytes: b, extraBytes: 0, requests: 1 },
    });
  });

  it('bills a state filter twice only for the requests that use it', async () => {
    gateway.meter.drain();
    const filtered = basic(`${planA.login}__cr.de;state.bavaria`, planA.password);
    const plain = basic(planA.login, planA.password);
    const client = new Client();
    const first = await client.send(filtered, 20_000);
    let later = 0;
    for (let i = 0; i < 5; i++) {
      later += await client.send(plain, 20_000);
    }
    await client.close();
    expect(await billed()).toEqual({
      [planA.planId]: { bytes: first + later, extraBytes: first, requests: 6 },
    });

    // And the other way round.
    const reverse = new Client();
    const plainFirst = await reverse.send(plain, 20_000);
    let filteredLater = 0;
    for (let i = 0; i < 5; i++) {
      filteredLater += await reverse.send(filtered, 20_000);
    }
    await reverse.close();
    expect(await billed()).toEqual({
      [planA.planId]: { bytes: plainFirst + filteredLater, extraBytes: filteredLater, requests: 6 },
    });
  });
});
