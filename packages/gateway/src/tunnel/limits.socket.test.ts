import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { SocksClient } from 'socks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';

// A plan's limits hold on connections already open: its traffic stops at its limit at any speed, and a
// plan that is deactivated, changes its password or drops an allowlisted address ends its connections.

const MiB = 1024 * 1024;
const DOWNLOAD_BYTES = 50 * 1000 * 1000;
/** The stated bound: past its traffic a connection carries at most its request head and one read. */
const OVERDRAFT_BOUND = 16 * 1024 + 64 * 1024;

let planCounter = 0;
function newPlan(overrides: Partial<PlanAccess> = {}): PlanAccess {
  planCounter += 1;
  return {
    planId: `plan-limits-${planCounter}`,
    login: `bglimits${String(planCounter).padStart(3, '0')}`,
    password: `Secret${planCounter}xyz`,
    poolType: 'datacenter',
    threadLimit: 10,
    trafficLeftBytes: 10 * MiB,
    isActive: true,
    ...overrides,
  };
}

let stream: Server;
let streamPort: number;
let sink: Server;
let sinkPort: number;
let store: InMemoryGatewayStore;
let gateway: Gateway;
let httpPort: number;
let socksPort: number;

beforeAll(async () => {
  // `stream` sends 50 MB to whoever connects (a raw tunnel target, and an HTTP answer when asked).
  stream = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      const isHttp = first.toString('latin1').startsWith('GET ');
      const chunk = Buffer.alloc(64 * 1024, 120);
      if (isHttp) {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${DOWNLOAD_BYTES}\r\n\r\n`);
      }
      let sent = 0;
      const pump = () => {
        while (sent < DOWNLOAD_BYTES) {
          const part = chunk.subarray(0, Math.min(chunk.length, DOWNLOAD_BYTES - sent));
          sent += part.length;
          if (!socket.write(part)) {
            socket.once('drain', pump);
            return;
          }
        }
        socket.end();
      };
      pump();
    });
  });
  // `sink` takes whatever is sent to it.
  sink = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.resume();
  });
  await Promise.all([
    new Promise<void>((resolve) => stream.listen(0, '127.0.0.1', resolve)),
    new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve)),
  ]);
  streamPort = (stream.address() as AddressInfo).port;
  sinkPort = (sink.address() as AddressInfo).port;
  store = new InMemoryGatewayStore().addExit({
    id: 'local',
    kind: 'direct',
    poolType: 'datacenter',
    country: 'US',
    state: 'texas',
    isRisky: false,
    localAddress: '127.0.0.2',
  });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([streamPort, sinkPort]),
  });
  const ports = await gateway.listen();
  httpPort = ports.httpPort;
  socksPort = ports.socksPort as number;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => stream?.close(resolve));
  await new Promise((resolve) => sink?.close(resolve));
});

const basic = (plan: PlanAccess, login = plan.login) =>
  `Basic ${Buffer.from(`${login}:${plan.password}`).toString('base64')}`;

/** Everything a client socket carried until it closed, counted by the client. */
function countUntilClosed(socket: Socket): Promise<number> {
  socket.on('data', () => undefined);
  socket.on('error', () => undefined);
  return new Promise((resolve) =>
    socket.once('close', () => resolve(socket.bytesRead + socket.bytesWritten)),
  );
}

function openTunnel(plan: PlanAccess, port: number, login = plan.login): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(httpPort, '127.0.0.1', () => {
      socket.write(
        `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nProxy-Authorization: ${basic(plan, login)}\r\n\r\n`,
      );
    });
    socket.once('data', (head: Buffer) => {
      if (!head.toString('latin1').startsWith('HTTP/1.1 200')) {
        reject(new Error(head.toString('latin1').split('\r\n')[0]));
      }
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** What the meter billed a plan once the gateway saw its sockets close (their threads are free then). */
async function billedBytes(plan: PlanAccess): Promise<number> {
  await expect.poll(() => gateway.threads.count(plan.planId)).toBe(0);
  const usage = gateway.meter.drain().get(plan.planId);
  return (usage?.bytes ?? 0) + (usage?.extraBytes ?? 0);
}

describe('traffic that runs out mid-connection', () => {
  it('stops a 50 MB download through CONNECT at the plan’s 10 MiB', async () => {
    const plan = newPlan();
    store.addPlan(plan);
    const tunnel = await openTunnel(plan, streamPort);
    tunnel.write('go');
    const counted = await countUntilClosed(tunnel);
    const billed = await billedBytes(plan);
    expect(billed).toBe(counted);
    expect(billed).toBeGreaterThanOrEqual(plan.trafficLeftBytes);
    expect(billed).toBeLessThanOrEqual(plan.trafficLeftBytes + OVERDRAFT_BOUND);
  });

  it('stops a 50 MB download through SOCKS5 at the plan’s 10 MiB', async () => {
    const plan = newPlan();
    store.addPlan(plan);
    const { socket } = await SocksClient.createConnection({
      proxy: { host: '127.0.0.1', port: socksPort, type: 5, userId: plan.login, password: plan.password },
      command: 'connect',
      destination: { host: '127.0.0.1', port: streamPort },
      timeout: 5000,
    });
    socket.write('go');
    const counted = await countUntilClosed(socket);
    const billed = await billedBytes(plan);
    expect(billed).toBe(counted);
    expect(billed).toBeGreaterThanOrEqual(plan.trafficLeftBytes);
    expect(billed).toBeLessThanOrEqual(plan.trafficLeftBytes + OVERDRAFT_BOUND);
  });

  it('stops a 50 MB forward download at the plan’s 10 MiB', async () => {
    const plan = newPlan();
    store.addPlan(plan);
    const socket = connect(httpPort, '127.0.0.1', () => {
      socket.write(
        `GET http://127.0.0.1:${streamPort}/big HTTP/1.1\r\nHost: 127.0.0.1:${streamPort}\r\nProxy-Authorization: ${basic(plan)}\r\n\r\n`,
      );
    });
    const counted = await countUntilClosed(socket);
    const billed = await billedBytes(plan);
    expect(billed).toBe(counted);
    expect(billed).toBeGreaterThanOrEqual(plan.trafficLeftBytes);
    expect(billed).toBeLessThanOrEqual(plan.trafficLeftBytes + OVERDRAFT_BOUND);
  });

  it('stops a 2x-billed download at half the bytes', async () => {
    const plan = newPlan();
    store.addPlan(plan);
    const tunnel = await openTunnel(plan, streamPort, `${plan.login}__cr.us;state.texas`);
    tunnel.write('go');
    const counted = await countUntilClosed(tunnel);
    const billed = await billedBytes(plan);
    expect(billed).toBe(2 * counted);
    expect(billed).toBeLessThanOrEqual(plan.trafficLeftBytes + 2 * OVERDRAFT_BOUND);
  });

  it('stops an upload within the bound, and shares the last traffic among several connections', async () => {
    const plan = newPlan();
    store.addPlan(plan);
    const tunnels = await Promise.all([1, 2, 3].map(() => openTunnel(plan, sinkPort)));
    const counts = tunnels.map(countUntilClosed);
    const block = Buffer.alloc(256 * 1024, 117);
    for (const tunnel of tunnels) {
      const pump = () => {
        while (!tunnel.destroyed && tunnel.write(block)) {
          // keep writing until the kernel pushes back, or the gateway cuts the tunnel
        }
        if (!tunnel.destroyed) {
          tunnel.once('drain', pump);
        }
      };
      pump();
    }
    await Promise.all(counts);
    const billed = await billedBytes(plan);
    expect(billed).toBeGreaterThanOrEqual(plan.trafficLeftBytes);
    expect(billed).toBeLessThanOrEqual(plan.trafficLeftBytes + tunnels.length * OVERDRAFT_BOUND);
  });

  it('refuses new connections once the plan is used up', async () => {
    const plan = newPlan({ trafficLeftBytes: 100_000 });
    store.addPlan(plan);
    const tunnel = await openTunnel(plan, streamPort);
    tunnel.write('go');
    await countUntilClosed(tunnel);
    await expect(openTunnel(plan, streamPort)).rejects.toThrow('HTTP/1.1 407 TRAFFIC_EXHAUSTED');
  });
});

describe('a plan that changes under open connections', () => {
  /** An idle tunnel (the target sends nothing until asked): answers ms until the gateway closed it. */
  async function closesWithin(socket: Socket, change: () => void): Promise<number> {
    const closed = new Promise<number>((resolve) => {
      socket.on('error', () => undefined);
      socket.once('close', () => resolve(Date.now()));
    });
    const changedAt = Date.now();
    change();
    const at = await Promise.race([
      closed,
      new Promise<number>((resolve) => setTimeout(() => resolve(-1), 3000)),
    ]);
    return at === -1 ? Number.POSITIVE_INFINITY : at - changedAt;
  }

  it('closes its tunnels and kept-alive connections within 2 s of being deactivated', async () => {
    const plan = newPlan();
    store.addPlan(plan);
    const tunnel = await openTunnel(plan, sinkPort);
    const other = await openTunnel(plan, sinkPort);
    const otherClosed = new Promise((resolve) => other.once('close', resolve));
    expect(
      await closesWithin(tunnel, () => {
        plan.isActive = false;
      }),
    ).toBeLessThan(2000);
    await otherClosed;
    await expect.poll(() => gateway.threads.count(plan.planId)).toBe(0);
  });

  it('closes connections made with the old password within 2 s of a password change', async () => {
    const plan = newPlan();
    store.addPlan(plan);
    const tunnel = await openTunnel(plan, sinkPort);
    expect(
      await closesWithin(tunnel, () => {
        plan.password = 'a new password';
      }),
    ).toBeLessThan(2000);
    // The new password works at once.
    const again = await openTunnel(plan, sinkPort);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(again.destroyed).toBe(false);
    again.destroy();
  });

  it('closes an allowlisted connection within 2 s of its address leaving the allowlist', async () => {
    const plan = newPlan();
    store.addPlan(plan, ['127.0.0.1']);
    const tunnel = await new Promise<Socket>((resolve) => {
      const socket = connect(httpPort, '127.0.0.1', () => {
        socket.write(`CONNECT 127.0.0.1:${sinkPort} HTTP/1.1\r\nHost: 127.0.0.1:${sinkPort}\r\n\r\n`);
      });
      socket.once('data', () => resolve(socket));
    });
    expect(await closesWithin(tunnel, () => store.removeAddress('127.0.0.1'))).toBeLessThan(2000);
  });
});
