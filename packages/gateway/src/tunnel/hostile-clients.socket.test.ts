import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import type { PendingLimits } from './pending-connections.ts';

// Clients that never authenticate cost the gateway memory, descriptors and parsing and cost the attacker
// nothing: they are capped per address and in total, and held to an absolute deadline; and nothing a
// client sends is echoed into a header unsafely.

const plan: PlanAccess = {
  planId: 'plan-hostile',
  login: 'bghostile001',
  password: 'Secret1xyz',
  poolType: 'datacenter',
  threadLimit: 100,
  trafficLeftBytes: 1024 ** 3,
  isActive: true,
};
const AUTH = `Proxy-Authorization: Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`;

let origin: Server;
let originPort: number;
let gateway: Gateway | undefined;
const clients: Socket[] = [];

beforeAll(async () => {
  origin = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.resume();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
});

afterEach(async () => {
  for (const socket of clients.splice(0)) {
    socket.destroy();
  }
  await gateway?.close();
  gateway = undefined;
});

afterAll(async () => {
  await new Promise((resolve) => origin?.close(resolve));
});

async function startGateway(pendingLimits: Partial<PendingLimits>) {
  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addExit({ id: 'local', kind: 'direct', poolType: 'datacenter', country: 'US', isRisky: false });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
    pendingLimits,
  });
  const ports = await gateway.listen();
  return { http: ports.httpPort, socks: ports.socksPort as number };
}

/** A connection from `from` (a loopback address), open and silent. */
function open(port: number, from = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(socket));
    socket.on('error', reject);
    clients.push(socket);
  });
}

/** Everything the gateway sent until it closed the connection, and when it closed (ms from now). */
function untilClosed(socket: Socket): Promise<{ text: string; afterMs: number }> {
  const started = Date.now();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  return new Promise((resolve) =>
    socket.once('close', () =>
      resolve({ text: Buffer.concat(chunks).toString('latin1'), afterMs: Date.now() - started }),
    ),
  );
}

const connectHead = `CONNECT 127.0.0.1:${0}`;
function tunnelRequest(): string {
  return `${connectHead.replace(':0', `:${originPort}`)} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n${AUTH}\r\n\r\n`;
}

/** The first line the gateway answers a CONNECT with. */
async function tunnelStatus(port: number, from = '127.0.0.1'): Promise<string> {
  const socket = await open(port, from);
  const answer = new Promise<string>((resolve) =>
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0] ?? '')),
  );
  socket.write(tunnelRequest());
  return answer;
}

describe('connections that have not authenticated', () => {
  it('are capped per client address: the next one gets 429 TOO_MANY_CONNECTIONS with Retry-After', async () => {
    const ports = await startGateway({ perAddress: 3 });
    for (let i = 0; i < 3; i++) {
      await open(ports.http, '127.0.0.7');
    }
    const refused = await untilClosed(await open(ports.http, '127.0.0.7'));
    expect(refused.text).toMatch(/^HTTP\/1\.1 429 TOO_MANY_CONNECTIONS\r\n/);
    expect(refused.text).toContain('\r\nRetry-After: 1\r\n');
    // The SOCKS5 port says "no acceptable method", the answer a SOCKS5 client reads as a refusal.
    expect((await untilClosed(await open(ports.socks, '127.0.0.7'))).text).toBe('\x05\xff');
    // Another address is not held back, and an authenticated tunnel does not count against its own.
    expect(await tunnelStatus(ports.http, '127.0.0.8')).toBe('HTTP/1.1 200 Connection Established');
    // Once the silent ones go, the address is served again.
    for (const socket of clients.splice(0, 3)) {
      socket.destroy();
    }
    await expect.poll(() => gateway?.pending.size).toBe(0);
    expect(await tunnelStatus(ports.http, '127.0.0.7')).toBe('HTTP/1.1 200 Connection Established');
  });

  it('are capped in total: past it new connections are shed at once with 503 OVERLOADED', async () => {
    const ports = await startGateway({ total: 4 });
    for (let i = 0; i < 4; i++) {
      await open(ports.http, `127.0.1.${i + 1}`);
    }
    const shed = await untilClosed(await open(ports.http, '127.0.1.9'));
    expect(shed.text).toMatch(/^HTTP\/1\.1 503 OVERLOADED\r\n/);
    expect(shed.text).toContain('\r\nRetry-After: 1\r\n');
    expect(shed.afterMs).toBeLessThan(1000);
  });

  it('must finish the request head within the deadline however steadily its bytes trickle in', async () => {
    const ports = await startGateway({ deadlineMs: 800 });
    const socket = await open(ports.http);
    const request = tunnelRequest();
    let sent = 0;
    const drip = setInterval(() => {
      if (!socket.destroyed && sent < request.length - 4) {
        socket.write(request[sent] ?? '');
        sent += 1;
      }
    }, 50);
    const closed = await untilClosed(socket);
    clearInterval(drip);
    // An idle timer would never fire (a byte every 50 ms); the deadline does.
    expect(closed.afterMs).toBeGreaterThanOrEqual(700);
    expect(closed.afterMs).toBeLessThan(2500);
    expect(closed.text).toBe('');
    await expect.poll(() => gateway?.pending.size).toBe(0);
  });

  it('must finish the SOCKS5 handshake within the deadline however steadily its bytes trickle in', async () => {
    const ports = await startGateway({ deadlineMs: 800 });
    const socket = await open(ports.socks);
    const login = Buffer.from(plan.login);
    const handshake = Buffer.concat([
      Buffer.from([0x05, 0x01, 0x02, 0x01, login.length]),
      login,
      Buffer.from([plan.password.length]),
    ]);
    let sent = 0;
    const drip = setInterval(() => {
      if (!socket.destroyed && sent < handshake.length) {
        socket.write(handshake.subarray(sent, sent + 1));
        sent += 1;
      }
    }, 50);
    const closed = await untilClosed(socket);
    clearInterval(drip);
    expect(closed.afterMs).toBeGreaterThanOrEqual(700);
    expect(closed.afterMs).toBeLessThan(2500);
  });

  it('stop counting once authenticated: a long tunnel is not cut by the deadline', async () => {
    const ports = await startGateway({ deadlineMs: 500 });
    const socket = await open(ports.http);
    const answered = new Promise<string>((resolve) =>
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))),
    );
    socket.write(tunnelRequest());
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(socket.destroyed).toBe(false);
    expect(gateway?.pending.size).toBe(0);
  });
});

describe('what a client sends, in what comes back', () => {
  it('answers 431 to a 63 KB request head sent in one write', async () => {
    const ports = await startGateway({});
    const socket = await open(ports.http);
    const closed = untilClosed(socket);
    socket.write(
      `GET http://127.0.0.1:${originPort}/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(63 * 1024)}\r\n${AUTH}\r\n\r\n`,
    );
    expect((await closed).text).toMatch(/^HTTP\/1\.1 431 HEAD_TOO_LARGE\r\n/);
  });

  it('never lets a username split a header: CR, LF and controls are removed from Proxy-Status', async () => {
    const ports = await startGateway({});
    // Sent as is, the colon ends the Basic user-id (the rest is a wrong password); percent-encoded, the
    // decoded username holds CR, LF and the colon, and its grammar error quotes them back.
    for (const [username, status] of [
      [`${plan.login}__x\r\nSet-Cookie: stolen=1\r\nX-Injected.1`, '407'],
      [`${plan.login}__x%0D%0ASet-Cookie%3A stolen=1%0d%0aX-Injected.1`, '400'],
    ] as const) {
      const socket = await open(ports.http);
      const closed = untilClosed(socket);
      const auth = Buffer.from(`${username}:${plan.password}`).toString('base64');
      socket.write(
        `CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
      );
      const { text } = await closed;
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      expect(head, username).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      const names = head
        .split('\r\n')
        .slice(1)
        .map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
      expect(names).not.toContain('set-cookie');
      expect(names).not.toContain('x-injected.1');
      expect(head).toMatch(/Proxy-Status: bytegate; error=[a-z_]+; details="[\x20-\x7e]*"/);
    }
  });
});

describe('a connection refused after it took a thread slot', () => {
  /** A tunnel the plan's credentials open but the target policy refuses (a port that is not open). */
  const refusedTunnel = `CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n${AUTH}\r\n\r\n`;

  async function slotsAfter(ms: number): Promise<number> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return gateway?.threads.count(plan.planId) ?? -1;
  }

  it('gives the slot back as soon as the client closes after reading the refusal', async () => {
    const ports = await startGateway({});
    const socket = await open(ports.http);
    const reply = new Promise<string>((resolve) =>
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))),
    );
    socket.write(refusedTunnel);
    expect(await reply).toMatch(/^HTTP\/1\.1 403 /);
    // Bytes sent after the head wait unread on the gateway's paused socket, and the client's close
    // behind them is never seen unless the gateway reads on.
    socket.end('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await slotsAfter(300)).toBe(0);
  });

  it('drops within a second, slot and all, a client that never closes its side', async () => {
    const ports = await startGateway({});
    // A client that stays open after the gateway's close, as one that ignores the FIN would.
    const socket = await new Promise<Socket>((resolve) => {
      const opened = connect({ port: ports.socks, host: '127.0.0.1', allowHalfOpen: true }, () =>
        resolve(opened),
      );
      clients.push(opened);
    });
    const replies: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => replies.push(chunk));
    socket.write(Buffer.from([0x05, 0x01, 0x02]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const login = Buffer.from(plan.login);
    const password = Buffer.from(plan.password);
    socket.write(Buffer.from([0x01, login.length, ...login, password.length, ...password]));
    // An IPv4 CONNECT to port 1, which the policy refuses after the credentials took a slot.
    socket.write(Buffer.from([0x05, 0x01, 0x00, 0x01, 127, 0, 0, 1, 0, 1]));
    expect(await slotsAfter(300)).toBe(1);
    // Method chosen, credentials accepted, then REP 0x02 (not allowed by the ruleset).
    expect(Buffer.concat(replies).subarray(0, 6)).toEqual(Buffer.from([0x05, 0x02, 0x01, 0x00, 0x05, 0x02]));
    expect(await slotsAfter(1000)).toBe(0);
  });
});
