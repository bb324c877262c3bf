import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { SocksClient } from 'socks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess, type ProxyUserAccess, proxyUserKey } from '../store.ts';

// Proxy users (issue 17): more credentials under one plan, each with its own caps. A user at its
// traffic cap is cut within the overdraft bound and refused after, while the plan's other users go on;
// a user's thread limit holds beside the plan's; disabling a user or giving it a new password ends its
// open tunnels within 2 s.

const MiB = 1024 * 1024;
const DOWNLOAD_BYTES = 50 * 1000 * 1000;
/** The stated bound (limits.socket.test.ts): past its traffic a connection carries its head and one read. */
const OVERDRAFT_BOUND = 16 * 1024 + 64 * 1024;

let counter = 0;
function newPlan(): PlanAccess {
  counter += 1;
  return {
    planId: `plan-users-${counter}`,
    login: `bgusers${String(counter).padStart(4, '0')}`,
    password: `PlanSecret${counter}`,
    poolType: 'datacenter',
    threadLimit: 10,
    trafficLeftBytes: 1024 * MiB,
    isActive: true,
  };
}

function newUser(plan: PlanAccess, overrides: Partial<ProxyUserAccess> = {}): ProxyUserAccess {
  counter += 1;
  return {
    proxyUserId: `user-${counter}`,
    planId: plan.planId,
    login: `reseller${String(counter).padStart(4, '0')}`,
    password: `UserSecret${counter}`,
    isEnabled: true,
    ...overrides,
  };
}

let stream: Server;
let streamPort: number;
/** Answers with the address the request came from: which exit carried it. */
let echo: Server;
let echoPort: number;
let store: InMemoryGatewayStore;
let gateway: Gateway;
let httpPort: number;
let socksPort: number;

beforeAll(async () => {
  // Sends 50 MB to whoever connects and writes something.
  stream = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.once('data', () => {
      const chunk = Buffer.alloc(64 * 1024, 120);
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
  await new Promise<void>((resolve) => stream.listen(0, '127.0.0.1', resolve));
  streamPort = (stream.address() as AddressInfo).port;
  echo = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.once('data', () => {
      const body = String(socket.remoteAddress);
      socket.end(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as AddressInfo).port;
  store = new InMemoryGatewayStore().addExit({
    id: 'local',
    kind: 'direct',
    poolType: 'datacenter',
    country: 'US',
    isRisky: false,
    localAddress: '127.0.0.2',
  });
  store.addExit({
    id: 'local-2',
    kind: 'direct',
    poolType: 'datacenter',
    country: 'US',
    isRisky: false,
    localAddress: '127.0.0.3',
  });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([streamPort, echoPort]),
  });
  const ports = await gateway.listen();
  httpPort = ports.httpPort;
  socksPort = ports.socksPort as number;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => stream?.close(resolve));
  await new Promise((resolve) => echo?.close(resolve));
});

/** The exit address a forward request with this username left from. */
function exitOf(username: string, password: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(httpPort, '127.0.0.1', () => {
      socket.write(
        `GET http://127.0.0.1:${echoPort}/ HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\nConnection: close\r\nProxy-Authorization: ${basic(username, password)}\r\n\r\n`,
      );
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text.slice(text.indexOf('\r\n\r\n') + 4)));
  });
}

const basic = (login: string, password: string) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** A CONNECT tunnel to the stream, or the status line it was refused with. */
function openTunnel(login: string, password: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(httpPort, '127.0.0.1', () => {
      socket.write(
        `CONNECT 127.0.0.1:${streamPort} HTTP/1.1\r\nHost: 127.0.0.1:${streamPort}\r\nProxy-Authorization: ${basic(login, password)}\r\n\r\n`,
      );
    });
    socket.once('data', (head: Buffer) => {
      const text = head.toString('latin1');
      if (!text.startsWith('HTTP/1.1 200')) {
        socket.destroy();
        reject(new Error(text));
      }
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function countUntilClosed(socket: Socket): Promise<number> {
  socket.on('data', () => undefined);
  socket.on('error', () => undefined);
  return new Promise((resolve) =>
    socket.once('close', () => resolve(socket.bytesRead + socket.bytesWritten)),
  );
}

const closed = (socket: Socket) =>
  new Promise<number>((resolve) => {
    const started = Date.now();
    if (socket.destroyed) {
      resolve(0);
    }
    socket.once('close', () => resolve(Date.now() - started));
  });

describe('proxy users of one plan', () => {
  it('cuts a user at its 1 MiB cap within the bound and refuses it after, while the other user goes on', async () => {
    const plan = newPlan();
    const capped = newUser(plan, { cap: { leftBytes: MiB, description: 'daily traffic cap of 0.001 GB' } });
    const free = newUser(plan);
    store.addPlan(plan).addProxyUser(capped).addProxyUser(free);

    const cappedTunnel = await openTunnel(capped.login, capped.password);
    const freeTunnel = await openTunnel(free.login, free.password);
    cappedTunnel.write('go');
    const cappedCarried = await countUntilClosed(cappedTunnel);
    // The other user's tunnel was opened before and is still open; it downloads on.
    expect(freeTunnel.destroyed).toBe(false);
    freeTunnel.write('go');
    let freeReceived = 0;
    freeTunnel.on('data', (chunk: Buffer) => {
      freeReceived += chunk.length;
    });
    await expect.poll(() => freeReceived, { timeout: 5000 }).toBeGreaterThan(4 * MiB);
    freeTunnel.destroy();

    await expect.poll(() => gateway.threads.count(plan.planId)).toBe(0);
    const drained = gateway.meter.drain();
    const cappedUsage = drained.get(proxyUserKey(capped.proxyUserId));
    const planUsage = drained.get(plan.planId);
    expect(cappedUsage?.bytes).toBe(cappedCarried);
    expect(cappedCarried).toBeGreaterThanOrEqual(MiB);
    expect(cappedCarried).toBeLessThanOrEqual(MiB + OVERDRAFT_BOUND);
    // The plan carries both users' bytes: a user's share is part of its plan's traffic.
    const freeUsage = drained.get(proxyUserKey(free.proxyUserId));
    expect(planUsage?.bytes).toBe((cappedUsage?.bytes ?? 0) + (freeUsage?.bytes ?? 0));
    store.noteUsageStored(drained);

    // Refused after, naming the cap, not the plan; the other user is still let in.
    await expect(openTunnel(capped.login, capped.password)).rejects.toThrow(
      /407[\s\S]*TRAFFIC_EXHAUSTED[\s\S]*daily traffic cap of 0\.001 GB/,
    );
    const again = await openTunnel(free.login, free.password);
    again.destroy();
    // SOCKS5 refuses the capped user too.
    await expect(
      SocksClient.createConnection({
        proxy: {
          host: '127.0.0.1',
          port: socksPort,
          type: 5,
          userId: capped.login,
          password: capped.password,
        },
        command: 'connect',
        destination: { host: '127.0.0.1', port: streamPort },
        timeout: 5000,
      }),
    ).rejects.toThrow();
  });

  it('holds a user to its own thread limit, beside the plan’s', async () => {
    const plan = newPlan();
    const user = newUser(plan, { threadLimit: 2 });
    store.addPlan(plan).addProxyUser(user);
    const first = await openTunnel(user.login, user.password);
    const second = await openTunnel(user.login, user.password);
    await expect(openTunnel(user.login, user.password)).rejects.toThrow(
      /407[\s\S]*This proxy user's limit of 2 concurrent connections/,
    );
    // The plan's own login is not held by its user's limit.
    const own = await openTunnel(plan.login, plan.password);
    first.destroy();
    await expect.poll(() => gateway.threads.count(proxyUserKey(user.proxyUserId))).toBe(1);
    const third = await openTunnel(user.login, user.password);
    for (const socket of [second, third, own]) {
      socket.destroy();
    }
  });

  it('closes a disabled user’s open tunnel within 2 s and refuses it after', async () => {
    const plan = newPlan();
    const user = newUser(plan);
    store.addPlan(plan).addProxyUser(user);
    const tunnel = await openTunnel(user.login, user.password);
    tunnel.on('error', () => undefined);
    const took = closed(tunnel);
    user.isEnabled = false;
    expect(await took).toBeLessThan(2000);
    await expect(openTunnel(user.login, user.password)).rejects.toThrow(
      /407[\s\S]*This proxy user is disabled/,
    );
  });

  it('refuses a regenerated password’s old one and closes the tunnels it opened within 2 s', async () => {
    const plan = newPlan();
    const user = newUser(plan);
    store.addPlan(plan).addProxyUser(user);
    const old = user.password;
    const tunnel = await openTunnel(user.login, old);
    tunnel.on('error', () => undefined);
    const took = closed(tunnel);
    user.password = 'NewUserSecret99';
    expect(await took).toBeLessThan(2000);
    await expect(openTunnel(user.login, old)).rejects.toThrow(/407[\s\S]*Wrong proxy login or password/);
    const fresh = await openTunnel(user.login, user.password);
    fresh.destroy();
  });

  it('admits an allowlisted address as the user that lists it, under that user’s caps', async () => {
    const plan = newPlan();
    const user = newUser(plan, { threadLimit: 1 });
    store.addPlan(plan).addProxyUser(user, ['127.0.0.1']);
    try {
      const socket = connect(httpPort, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`CONNECT 127.0.0.1:${streamPort} HTTP/1.1\r\nHost: 127.0.0.1:${streamPort}\r\n\r\n`);
      const head = await new Promise<string>((resolve) =>
        socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))),
      );
      expect(head).toMatch(/^HTTP\/1\.1 200/);
      expect(gateway.threads.count(proxyUserKey(user.proxyUserId))).toBe(1);
      socket.destroy();
    } finally {
      store.removeProxyUserAddress('127.0.0.1');
    }
  });

  it('keeps each user’s sessions its own: the same sessid names two sessions', async () => {
    const plan = newPlan();
    const one = newUser(plan);
    const two = newUser(plan);
    store.addPlan(plan).addProxyUser(one).addProxyUser(two);
    let same = 0;
    const names = Array.from({ length: 20 }, (_, i) => `shared${i}`);
    for (const name of names) {
      const first = await exitOf(`${one.login}__sessid.${name}`, one.password);
      // A session holds its exit for its user.
      expect(await exitOf(`${one.login}__sessid.${name}`, one.password)).toBe(first);
      if ((await exitOf(`${two.login}__sessid.${name}`, two.password)) === first) {
        same += 1;
      }
    }
    // Shared sessions would put the second user on the first one's exit every time (20 of 20); its own
    // sessions pick at random between two exits (all 20 alike by chance: one in a million).
    expect(same).toBeLessThan(names.length);
  });
});
