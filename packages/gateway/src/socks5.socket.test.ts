import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { SocksClient } from 'socks';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from './gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from './store.ts';

const run = promisify(execFile);

const plan: PlanAccess = {
  planId: 'plan-socks',
  login: 'bgsockslogin',
  password: 'Secret123',
  poolType: 'datacenter',
  threadLimit: 3,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const allowlistedPlan: PlanAccess = { ...plan, planId: 'plan-allow', login: 'bgallowlist1' };
/** Its exit is not bound to an IPv4 address, so it reaches IPv6 targets too. */
const unboundPlan: PlanAccess = {
  ...plan,
  planId: 'plan-unbound',
  login: 'bgunbound123',
  poolType: 'residential',
};

let origin: Server;
let originPort: number;
let gateway: Gateway;
let ports: ListeningPorts;
let allowGateway: Gateway;
let allowPorts: ListeningPorts;
let hasIpv6 = false;

const originUrl = (path = '/') => `http://127.0.0.1:${originPort}${path}`;
const socksPort = () => ports.socksPort ?? 0;
const sticky = () => ports.stickyPorts ?? { first: 0, last: 0 };

async function curl(args: string[]) {
  const format = '\n%{http_code}';
  const stdout = await run('curl', ['-s', '--max-time', '10', '-w', format, ...args]).then(
    (result) => result.stdout,
    (error: { stdout?: string; code?: number }) => `${error.stdout ?? ''}\nexit ${error.code}`,
  );
  const cut = stdout.lastIndexOf('\n');
  return { body: stdout.slice(0, cut), status: stdout.slice(cut + 1) };
}

/** A free run of `count` ports for the sticky range. */
async function freeRange(count: number): Promise<{ first: number; last: number }> {
  const isFree = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = createTcpServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (;;) {
    const first = 30_000 + Math.floor(Math.random() * 20_000);
    const all = await Promise.all(Array.from({ length: count }, (_, i) => isFree(first + i)));
    if (all.every(Boolean)) {
      return { first, last: first + count - 1 };
    }
  }
}

/** Raw SOCKS5 bytes to the gateway: answers everything it replied before closing (or within 2 s). */
function rawSocks(port: number, bytes: Buffer[]): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    socket.on('data', (chunk) => got.push(chunk));
    socket.on('error', () => undefined);
    const done = () => resolve(Buffer.concat(got));
    socket.once('close', done);
    setTimeout(() => {
      socket.destroy();
    }, 2000);
    // Sent one message at a time, a byte apart, to exercise a reader that must reassemble.
    void (async () => {
      for (const message of bytes) {
        for (const byte of message) {
          socket.write(Buffer.from([byte]));
          await new Promise((next) => setTimeout(next, 1));
        }
      }
    })();
  });
}

const greeting = (...methods: number[]) => Buffer.from([0x05, methods.length, ...methods]);
const userPass = (user: string, pass: string) =>
  Buffer.concat([
    Buffer.from([0x01, user.length]),
    Buffer.from(user),
    Buffer.from([pass.length]),
    Buffer.from(pass),
  ]);
const connectIpv4 = (port: number) => {
  const out = Buffer.from([0x05, 0x01, 0x00, 0x01, 127, 0, 0, 1, 0, 0]);
  out.writeUInt16BE(port, 8);
  return out;
};

/** A request through the `socks` client library; answers the HTTP response and every byte the client socket carried. */
async function viaSocksLibrary(
  userId: string,
  destination: { host: string; port: number },
  proxyPort = socksPort(),
): Promise<{ response: string; socketBytes: number }> {
  const { socket } = await SocksClient.createConnection({
    proxy: { host: '127.0.0.1', port: proxyPort, type: 5, userId, password: plan.password },
    command: 'connect',
    destination,
    timeout: 5000,
  });
  const hostHeader = destination.host.includes(':') ? `[${destination.host}]` : destination.host;
  socket.write(`GET /?bytes=5000 HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise((resolve) => socket.once('close', resolve));
  return {
    response: Buffer.concat(chunks).toString(),
    socketBytes: socket.bytesRead + socket.bytesWritten,
  };
}

beforeAll(async () => {
  origin = createServer((request, response) => {
    const size = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('bytes') ?? 0);
    response.end(size > 0 ? Buffer.alloc(size, 115) : `from ${request.socket.remoteAddress}`);
  });
  // Dual-stack when the machine has IPv6 loopback, so the IPv6 address type can be exercised.
  hasIpv6 = await new Promise<boolean>((resolve) => {
    const probe = createTcpServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });
  await new Promise<void>((resolve) => origin.listen(0, hasIpv6 ? '::' : '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;

  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addPlan(unboundPlan)
    .addExit({ id: 'us-1', kind: 'direct', poolType: 'residential', country: 'US', isRisky: false })
    .addExit({
      id: 'de-1',
      kind: 'direct',
      poolType: 'datacenter',
      localAddress: '127.0.0.2',
      country: 'DE',
      isRisky: false,
    })
    .addExit({
      id: 'fr-1',
      kind: 'direct',
      poolType: 'datacenter',
      localAddress: '127.0.0.3',
      country: 'FR',
      isRisky: false,
    })
    .addExit({
      id: 'nl-1',
      kind: 'direct',
      poolType: 'datacenter',
      localAddress: '127.0.0.4',
      country: 'NL',
      isRisky: false,
    });
  const settings = {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([80, 443, originPort]),
  };
  gateway = createGateway(store, { ...settings, stickyPorts: await freeRange(4) });
  ports = await gateway.listen();
  const allowStore = new InMemoryGatewayStore().addPlan(allowlistedPlan, ['127.0.0.1']).addExit({
    id: 'de-2',
    kind: 'direct',
    poolType: 'datacenter',
    localAddress: '127.0.0.2',
    country: 'DE',
    isRisky: false,
  });
  allowGateway = createGateway(allowStore, settings);
  allowPorts = await allowGateway.listen();
});

afterAll(async () => {
  await gateway?.close();
  await allowGateway?.close();
  origin?.closeAllConnections();
  await new Promise((resolve) => origin?.close(resolve));
});

describe('the SOCKS5 port', () => {
  it('carries curl through socks5 and socks5h with the bytes intact', async () => {
    const auth = ['--proxy-user', `${plan.login}:${plan.password}`];
    const local = await curl(['--socks5', `127.0.0.1:${socksPort()}`, ...auth, originUrl('/?bytes=200000')]);
    expect(local.status).toBe('200');
    expect(local.body).toBe('s'.repeat(200000));
    const remote = await curl([
      '--socks5-hostname',
      `127.0.0.1:${socksPort()}`,
      ...auth,
      `http://localhost:${originPort}/`,
    ]);
    expect(remote.status).toBe('200');
    expect(remote.body).toMatch(/^from (::ffff:)?127\.0\.0\.[234]$/);
  });

  it('bills exactly the bytes the client socket carried, handshake included', async () => {
    gateway.meter.drain();
    const { response, socketBytes } = await viaSocksLibrary(plan.login, {
      host: '127.0.0.1',
      port: originPort,
    });
    expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(response.endsWith('s'.repeat(5000))).toBe(true);
    const usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.bytes).toBe(socketBytes);
    expect(usage?.requests).toBe(1);
    // Every byte is also counted for the target host.
    expect(usage?.hostBytes).toEqual({ '127.0.0.1': socketBytes });
    // A target filter bills twice.
    const filtered = await viaSocksLibrary(`${plan.login}__cr.de;asn.3320`, {
      host: '127.0.0.1',
      port: originPort,
    }).catch((error: Error) => error);
    expect(filtered).toBeInstanceOf(Error); // no DE exit with that ASN: NO_RAY
    gateway.meter.drain();
  });

  it('takes IPv4, IPv6 and domain address types', async () => {
    for (const host of ['127.0.0.1', 'localhost', ...(hasIpv6 ? ['::1'] : [])]) {
      const { response } = await viaSocksLibrary(unboundPlan.login, { host, port: originPort });
      expect(response, host).toMatch(/^HTTP\/1\.1 200 OK/);
    }
  });

  it('answers RFC 1929 failure for a wrong password or a username grammar error, 0xFF without credentials', async () => {
    expect(await rawSocks(socksPort(), [greeting(0x02), userPass(plan.login, 'wrong')])).toEqual(
      Buffer.from([0x05, 0x02, 0x01, 0x01]),
    );
    expect(
      await rawSocks(socksPort(), [greeting(0x02), userPass(`${plan.login}__country.de`, plan.password)]),
    ).toEqual(Buffer.from([0x05, 0x02, 0x01, 0x01]));
    expect(await rawSocks(socksPort(), [greeting(0x00)])).toEqual(Buffer.from([0x05, 0xff]));
  });

  it('answers REP codes after auth: NO_RAY 0x01, a blocked port 0x02, an unsupported command 0x07', async () => {
    const rep = async (user: string, request: Buffer) =>
      (await rawSocks(socksPort(), [greeting(0x02), userPass(user, plan.password), request]))[5];
    expect(await rep(`${plan.login}__cr.us`, connectIpv4(originPort))).toBe(0x01);
    expect(await rep(plan.login, connectIpv4(25))).toBe(0x02);
    const bind = connectIpv4(originPort);
    bind[1] = 0x02;
    expect(await rep(plan.login, bind)).toBe(0x07);
    expect(await rep(plan.login, connectIpv4(originPort))).toBe(0x00);
  });

  it('lets an allowlisted client in with no authentication', async () => {
    const answer = await curl(['--socks5', `127.0.0.1:${allowPorts.socksPort}`, originUrl()]);
    expect(answer.status).toBe('200');
    expect(answer.body).toMatch(/from (::ffff:)?127\.0\.0\.2$/);
  });

  it('refuses the connection over the thread limit at the auth stage, and frees the slot on close', async () => {
    const open: Socket[] = [];
    for (let i = 0; i < plan.threadLimit; i++) {
      const { socket } = await SocksClient.createConnection({
        proxy: { host: '127.0.0.1', port: socksPort(), type: 5, userId: plan.login, password: plan.password },
        command: 'connect',
        destination: { host: '127.0.0.1', port: originPort },
      });
      open.push(socket);
    }
    expect(await rawSocks(socksPort(), [greeting(0x02), userPass(plan.login, plan.password)])).toEqual(
      Buffer.from([0x05, 0x02, 0x01, 0x01]),
    );
    const closed = new Promise((resolve) => open[0]?.once('close', resolve));
    open[0]?.destroy();
    await closed;
    await expect
      .poll(
        async () =>
          (
            await rawSocks(socksPort(), [
              greeting(0x02),
              userPass(plan.login, plan.password),
              connectIpv4(originPort),
            ])
          )[5],
      )
      .toBe(0x00);
    for (const socket of open) {
      socket.destroy();
    }
  });
});

describe('undici ProxyAgent through the HTTP port', () => {
  it('fetches through the gateway with Proxy-Authorization', async () => {
    const agent = new ProxyAgent({
      uri: `http://127.0.0.1:${ports.httpPort}`,
      token: `Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`,
    });
    try {
      const response = await undiciFetch(originUrl('/?bytes=3000'), { dispatcher: agent });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('s'.repeat(3000));
    } finally {
      await agent.close();
    }
  });
});

describe('the sticky ports', () => {
  const exitOn = async (port: number, protocol: 'http' | 'socks5') =>
    (
      await curl([
        '-x',
        `${protocol}://${plan.login}:${plan.password}@127.0.0.1:${port}`,
        ...(protocol === 'http' ? ['-p'] : []),
        originUrl(),
      ])
    ).body;

  it('keep one exit per port across connections and protocols', async () => {
    const { first, last } = sticky();
    const seen = new Set<string>();
    for (let port = first; port <= last; port++) {
      const exits = new Set<string>();
      for (let i = 0; i < 4; i++) {
        exits.add(await exitOn(port, i % 2 === 0 ? 'http' : 'socks5'));
      }
      expect([...exits], `port ${port}`).toHaveLength(1);
      seen.add([...exits][0] ?? '');
    }
    for (const exit of seen) {
      expect(exit).toMatch(/^from (::ffff:)?127\.0\.0\.[234]$/);
    }
  });

  it('carries forward HTTP too, and refuses sessid on a sticky port with PARAM_CONFLICT', async () => {
    const forward = await curl([
      '-x',
      `http://${plan.login}:${plan.password}@127.0.0.1:${sticky().first}`,
      originUrl('/?bytes=10'),
    ]);
    expect(forward.body).toBe('ssssssssss');
    const { stdout } = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://${plan.login}__sessid.abc:${plan.password}@127.0.0.1:${sticky().first}`,
      originUrl(),
    ]);
    expect(stdout).toMatch(/^HTTP\/1\.1 400 PARAM_CONFLICT/);
  });
});
