import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type DrainReport, type Gateway } from './gateway.ts';
import { InMemoryGatewayStore, type PlanAccess, type UsageFlush } from './store.ts';
import { freeRange } from './testing/sockets.ts';

// Draining for a graceful shutdown: every port stops accepting at once, tunnels and requests under way
// run to their end (or to the grace), idle keep-alive connections go at once, and every byte carried is
// billed exactly once, with every thread slot given back.

const plan: PlanAccess = {
  planId: 'plan-drain',
  login: 'bgdraintest1',
  password: 'Secret123',
  poolType: 'datacenter',
  threadLimit: 10,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const AUTH = `Proxy-Authorization: Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`;

/** A store whose flushes take a while, as a database's do: the last flush lands on one under way. */
class SlowStore extends InMemoryGatewayStore {
  override async flushUsage(flush: UsageFlush): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 80));
    await super.flushUsage(flush);
  }
}

let echo: Server;
let echoPort: number;
let origin: HttpServer;
let originPort: number;
let gateway: Gateway;
let store: SlowStore;
let ports: { http: number; socks: number; sticky: number };
const clients: TestClient[] = [];

/** A raw client socket that keeps what it received and knows when it closed. */
class TestClient {
  readonly socket: Socket;
  received = '';
  readonly closed: Promise<number>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1');
    });
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve(Date.now())));
    clients.push(this);
  }

  /** Bytes both ways at this end: what the gateway's client socket carried, so what must be billed. */
  carried(): number {
    return this.socket.bytesRead + this.socket.bytesWritten;
  }

  async waitFor(text: string, timeoutMs = 3000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.received.includes(text)) {
      if (Date.now() > deadline) {
        throw new Error(`never received ${JSON.stringify(text)}; got ${JSON.stringify(this.received)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** A CONNECT tunnel to the echo server, open and proven. */
  static async tunnel(): Promise<TestClient> {
    const client = new TestClient(ports.http);
    client.socket.write(
      `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\n${AUTH}\r\n\r\n`,
    );
    await client.waitFor('200 Connection Established\r\n\r\n');
    await client.roundTrip('first');
    return client;
  }

  /** Through a tunnel: writes and waits for the echo. */
  async roundTrip(text: string): Promise<void> {
    this.socket.write(`<${text}>`);
    await this.waitFor(`<${text}>`);
  }

  /** A forward request on a kept-alive connection; waits for the whole answer (`done` ends the body). */
  async get(path: string, done: string): Promise<void> {
    this.socket.write(
      `GET http://127.0.0.1:${originPort}${path} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n${AUTH}\r\n\r\n`,
    );
    await this.waitFor(done);
  }
}

/** Whether a new connection to `port` is refused (or reset) rather than accepted and served. */
function isRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, '127.0.0.1');
    probe.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET'),
    );
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
  });
}

function billedBytes(): number {
  const usage = store.flushed.get(plan.planId);
  return (usage?.bytes ?? 0) + (usage?.extraBytes ?? 0);
}

beforeAll(async () => {
  echo = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as AddressInfo).port;
  // `/` answers at once; `/slow` 300 ms later, so a drain starts while it is under way.
  origin = createHttpServer((request, response) => {
    const answer = () => response.end(request.url === '/slow' ? 'slow answer.' : 'quick answer.');
    setTimeout(answer, request.url === '/slow' ? 300 : 0);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
});

afterEach(async () => {
  for (const client of clients.splice(0)) {
    client.socket.destroy();
  }
  await gateway?.close();
});

afterAll(async () => {
  origin?.closeAllConnections();
  await new Promise((resolve) => origin?.close(resolve));
  await new Promise((resolve) => echo?.close(resolve));
});

async function startGateway(): Promise<void> {
  store = new SlowStore().addPlan({ ...plan }).addExit({
    id: 'local',
    kind: 'direct',
    poolType: 'datacenter',
    country: 'US',
    isRisky: false,
    localAddress: '127.0.0.2',
  });
  const sticky = await freeRange(1);
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    stickyPorts: sticky,
    allowPrivateTargets: true,
    openPorts: new Set([echoPort, originPort]),
    // Every 100 ms, 80 ms each: a flush is under way most of the time, the last one too.
    usageFlushEveryMs: 100,
  });
  const listening = await gateway.listen();
  ports = { http: listening.httpPort, socks: listening.socksPort ?? 0, sticky: sticky.first };
}

describe('draining the gateway', () => {
  it('refuses new connections on every port at once, closes idle keep-alives, lets a tunnel finish and bills it exactly', async () => {
    await startGateway();
    const tunnel = await TestClient.tunnel();
    const idle = new TestClient(ports.http);
    await idle.get('/', 'quick answer.');
    expect(gateway.connections().byPlan.get(plan.planId)).toBe(2);

    const startedAt = Date.now();
    const draining = gateway.drain(10_000);
    // No new connection on any port, from the first moment.
    expect(await isRefused(ports.http)).toBe(true);
    expect(await isRefused(ports.socks)).toBe(true);
    expect(await isRefused(ports.sticky)).toBe(true);
    // The keep-alive connection waiting for its next request holds no work: closed at once.
    expect((await idle.closed) - startedAt).toBeLessThan(500);

    // The tunnel carries on for as long as its client wants, well past the idle close.
    for (let i = 0; i < 5; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await tunnel.roundTrip(`during drain ${i}`);
    }
    tunnel.socket.end();
    await tunnel.closed;
    const report: DrainReport = await draining;
    expect(report).toEqual({ openAtStart: 2, cutConnections: 0, isUsageStored: true });
    expect(Date.now() - startedAt).toBeLessThan(3000);

    // Billed exactly what the two client sockets carried, flushed once; every thread slot is back.
    expect(billedBytes()).toBe(tunnel.carried() + idle.carried());
    expect(store.flushed.get(plan.planId)?.requests).toBe(2);
    expect(gateway.connections()).toEqual({ open: 0, authenticating: 0, byPlan: new Map() });
    expect(gateway.threads.count(plan.planId)).toBe(0);
  });

  it('lets a request under way finish, then closes its keep-alive connection', async () => {
    await startGateway();
    const busy = new TestClient(ports.http);
    const answered = busy.get('/slow', 'slow answer.');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const report = await gateway.drain(5000);
    await answered;
    expect(busy.received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    await busy.closed;
    expect(report.cutConnections).toBe(0);
    expect(billedBytes()).toBe(busy.carried());
  });

  it('cuts a tunnel still open when the grace runs out, billing what it carried up to the cut', async () => {
    await startGateway();
    const tunnel = await TestClient.tunnel();
    const silent = new TestClient(ports.sticky);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const startedAt = Date.now();
    const draining = gateway.drain(400);
    // A client that connected and said nothing has nothing under way either.
    expect((await silent.closed) - startedAt).toBeLessThan(300);
    await tunnel.roundTrip('before the cut');
    const cutAt = await tunnel.closed;
    expect(cutAt - startedAt).toBeGreaterThanOrEqual(350);
    expect(cutAt - startedAt).toBeLessThan(1500);
    const report = await draining;
    expect(report).toEqual({ openAtStart: 2, cutConnections: 1, isUsageStored: true });
    // Nothing was in flight at the cut: what the client saw go both ways is the bill, to the byte.
    expect(billedBytes()).toBe(tunnel.carried());
    expect(gateway.connections().byPlan.size).toBe(0);
  });
});
