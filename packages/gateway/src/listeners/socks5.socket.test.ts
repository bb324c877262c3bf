import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { SocksClient } from 'socks';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import {
  connectIpv4,
  countingRelay,
  curl,
  freeRange,
  greeting,
  rawSocks,
  run,
  userPass,
} from '../testing/sockets.ts';

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
    expect(local.status).toBe(200);
    expect(local.body).toBe('s'.repeat(200000));
    const remote = await curl([
      '--socks5-hostname',
      `127.0.0.1:${socksPort()}`,
      ...auth,
      `http://localhost:${originPort}/`,
    ]);
    expect(remote.status).toBe(200);
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

  it('bills exactly what curl carried over socks5 and socks5h, measured at the socket', async () => {
    for (const [flag, host] of [
      ['--socks5', '127.0.0.1'],
      ['--socks5-hostname', 'localhost'],
    ] as const) {
      // The relay sees the very bytes the gateway's client socket carries, handshake included.
      const relay = await countingRelay(socksPort());
      try {
        gateway.meter.drain();
        const answer = await curl([
          flag,
          `127.0.0.1:${relay.port}`,
          '--proxy-user',
          `${plan.login}:${plan.password}`,
          '-H',
          'Expect:',
          '-d',
          'x'.repeat(5000),
          `http://${host}:${originPort}/?bytes=20000`,
        ]);
        expect(answer.status, flag).toBe(200);
        expect(answer.body).toBe('s'.repeat(20000));
        expect(answer.uploadBytes).toBe(5000);
        await relay.idle();
        // What curl counts at HTTP level plus the SOCKS5 greeting, login, request and their replies.
        const handshake = relay.bytes() - (answer.sentBytes + answer.receivedBytes);
        expect(handshake, flag).toBeGreaterThan(20);
        expect(handshake, flag).toBeLessThan(120);
        let billed = 0;
        await expect
          .poll(() => {
            billed += gateway.meter.drain().get(plan.planId)?.bytes ?? 0;
            return billed;
          })
          .toBe(relay.bytes());
      } finally {
        await relay.close();
      }
    }
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
    gateway.meter.drain();
    expect(await rep(plan.login, bind)).toBe(0x07);
    // Refused after a good login: counted in the plan's errors by code.
    expect(gateway.meter.drain().get(plan.planId)?.errorsByCode).toEqual({ BAD_REQUEST: 1 });
    // Success: BND.ADDR is the address the exit connected from.
    const success = await rawSocks(
      socksPort(),
      [greeting(0x02), userPass(plan.login, plan.password), connectIpv4(originPort)],
      1000,
    );
    // Method choice and login status first, then the reply.
    expect([...success.subarray(0, 8)]).toEqual([0x05, 0x02, 0x01, 0x00, 0x05, 0x00, 0x00, 0x01]);
    expect(success.subarray(8, 12).join('.')).toMatch(/^127\.0\.0\.[234]$/);
    expect(success.readUInt16BE(12)).toBeGreaterThan(0);
  });

  it('lets an allowlisted client in with no authentication', async () => {
    const answer = await curl(['--socks5', `127.0.0.1:${allowPorts.socksPort}`, originUrl()]);
    expect(answer.status).toBe(200);
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
    // Every slot comes back: refused, tunnelled and half-finished handshakes alike.
    await expect.poll(() => gateway.threads.count(plan.planId)).toBe(0);
  });
});

describe('undici ProxyAgent', () => {
  const fetchVia = async (options: ConstructorParameters<typeof ProxyAgent>[0]) => {
    const agent = new ProxyAgent(options);
    try {
      const response = await undiciFetch(originUrl('/?bytes=3000'), { dispatcher: agent });
      return { status: response.status, body: await response.text() };
    } finally {
      await agent.close();
    }
  };
  const token = `Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`;

  it('tunnels with CONNECT through the HTTP port (its default, even for http targets)', async () => {
    const answer = await fetchVia({ uri: `http://127.0.0.1:${ports.httpPort}`, token });
    expect(answer).toEqual({ status: 200, body: 's'.repeat(3000) });
  });

  it('sends absolute-form requests through the HTTP port without a tunnel', async () => {
    const answer = await fetchVia({ uri: `http://127.0.0.1:${ports.httpPort}`, token, proxyTunnel: false });
    expect(answer).toEqual({ status: 200, body: 's'.repeat(3000) });
  });

  it('speaks SOCKS5 with a login to the SOCKS port', async () => {
    const answer = await fetchVia({
      uri: `socks5://${plan.login}:${plan.password}@127.0.0.1:${socksPort()}`,
    });
    expect(answer).toEqual({ status: 200, body: 's'.repeat(3000) });
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
    gateway.meter.drain();
    const { stdout } = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://${plan.login}__sessid.abc:${plan.password}@127.0.0.1:${sticky().first}`,
      originUrl(),
    ]);
    expect(stdout).toMatch(/^HTTP\/1\.1 400 PARAM_CONFLICT/);
    // Over SOCKS5 the same conflict is a username error: RFC 1929 failure.
    expect(
      await rawSocks(sticky().first, [greeting(0x02), userPass(`${plan.login}__sessid.abc`, plan.password)]),
    ).toEqual(Buffer.from([0x05, 0x02, 0x01, 0x01]));
    // Both came after a good password: the plan's errors by code count them.
    expect(gateway.meter.drain().get(plan.planId)?.errorsByCode).toEqual({ PARAM_CONFLICT: 2 });
    // Without sessid, SOCKS5 on the same port is admitted to the port's session.
    const tunnel = await rawSocks(
      sticky().first,
      [greeting(0x02), userPass(plan.login, plan.password), connectIpv4(originPort)],
      1000,
    );
    expect([...tunnel.subarray(0, 6)]).toEqual([0x05, 0x02, 0x01, 0x00, 0x05, 0x00]);
  });

  it('leaves nothing listening when a port of the range is taken', async () => {
    const free = await freeRange(5);
    const range = { first: free.first, last: free.first + 2 };
    const [httpPort, socksPortToTry] = [free.first + 3, free.first + 4];
    const squatter = createTcpServer();
    await new Promise<void>((resolve) => squatter.listen(range.first + 1, '127.0.0.1', resolve));
    const doomed = createGateway(new InMemoryGatewayStore(), {
      host: '127.0.0.1',
      httpPort,
      socksPort: socksPortToTry,
      stickyPorts: range,
      allowPrivateTargets: false,
    });
    try {
      await expect(doomed.listen()).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    // Every port it had bound is free again.
    for (const port of [httpPort, socksPortToTry, range.first, range.last]) {
      const probe = createTcpServer();
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => probe.close(resolve));
    }
  });
});
