import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from './gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from './store.ts';
import { curl, run } from './testing/sockets.ts';

const plan: PlanAccess = {
  planId: 'plan-1',
  login: 'bgtestlogin1',
  password: 'Secret123',
  poolType: 'datacenter',
  threadLimit: 2,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};

/** A plan with 200 KB left, to run out mid-download. */
const smallPlan: PlanAccess = {
  ...plan,
  planId: 'plan-small',
  login: 'bgsmallplan1',
  trafficLeftBytes: 200_000,
};

let origin: Server;
let originPort: number;
let gateway: Gateway;
let proxyPort: number;
let privateGateway: Gateway;
let privatePort: number;

const proxy = (login: string, password = plan.password) => [
  '-x',
  `http://${login}:${password}@127.0.0.1:${proxyPort}`,
];

/** Opens a CONNECT tunnel by hand and answers the socket and the first reply line. */
function openTunnel(
  credentials: string,
  target = `127.0.0.1:${originPort}`,
): Promise<{ socket: Socket; statusLine: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxyPort, '127.0.0.1');
    const auth = Buffer.from(credentials).toString('base64');
    socket.once('error', reject);
    socket.write(
      `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
    );
    socket.once('data', (chunk) => resolve({ socket, statusLine: chunk.toString().split('\r\n')[0] ?? '' }));
  });
}

beforeAll(async () => {
  origin = createServer((request, response) => {
    if (request.url?.startsWith('/slow')) {
      // 64 KiB every 50 ms, 3 MiB in all: about 1.3 MB/s.
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= 3 * 1024 * 1024 || response.destroyed) {
          clearInterval(timer);
          response.end();
          return;
        }
        response.write(Buffer.alloc(64 * 1024, 99));
        sent += 64 * 1024;
      }, 50);
      response.on('close', () => clearInterval(timer));
      return;
    }
    const size = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('bytes') ?? 0);
    response.setHeader('x-seen-from', request.socket.remoteAddress ?? '');
    response.end(size > 0 ? Buffer.alloc(size, 97) : `from ${request.socket.remoteAddress}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;

  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addPlan(smallPlan)
    .addExit({
      id: 'de-1',
      kind: 'direct',
      poolType: 'datacenter',
      localAddress: '127.0.0.2',
      country: 'DE',
      city: 'berlin',
      isRisky: false,
    })
    .addExit({
      id: 'fr-1',
      kind: 'direct',
      poolType: 'datacenter',
      localAddress: '127.0.0.3',
      country: 'FR',
      city: 'paris',
      isRisky: false,
    });
  const openPorts = new Set([80, 443, originPort]);
  gateway = createGateway(store, { host: '127.0.0.1', httpPort: 0, allowPrivateTargets: true, openPorts });
  proxyPort = (await gateway.listen()).httpPort;
  const allowlisted = new InMemoryGatewayStore()
    .addPlan({ ...plan, planId: 'plan-2', login: 'bgallowlisted' }, ['127.0.0.1'])
    .addExit({
      id: 'de-2',
      kind: 'direct',
      poolType: 'datacenter',
      localAddress: '127.0.0.2',
      country: 'DE',
      isRisky: false,
    });
  privateGateway = createGateway(allowlisted, {
    host: '127.0.0.1',
    httpPort: 0,
    allowPrivateTargets: false,
    openPorts,
  });
  privatePort = (await privateGateway.listen()).httpPort;
});

afterAll(async () => {
  await gateway?.close();
  await privateGateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

describe('the HTTP proxy port', () => {
  it('answers 407 with the reason, Proxy-Authenticate and Proxy-Status without credentials', async () => {
    const { stdout } = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://127.0.0.1:${proxyPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(stdout).toMatch(/^HTTP\/1\.1 407 NO_USER\r\n/);
    expect(stdout).toContain('Proxy-Authenticate: Basic realm="Bytegate"');
    expect(stdout).toContain('X-Bytegate-Error: NO_USER');
    expect(stdout).toMatch(/Proxy-Status: bytegate; error=proxy_auth_required; details="NO_USER: /);
    const wrong = await curl([...proxy(plan.login, 'nope'), `http://127.0.0.1:${originPort}/`]);
    expect(wrong.status).toBe(407);
  });

  it('forwards HTTP and tunnels CONNECT with the bytes intact, through an exit the origin can see', async () => {
    const forward = await curl([...proxy(plan.login), `http://127.0.0.1:${originPort}/?bytes=100000`]);
    expect(forward.status).toBe(200);
    expect(forward.body).toBe('a'.repeat(100000));
    const tunnel = await curl([...proxy(plan.login), '-p', `http://127.0.0.1:${originPort}/`]);
    expect(tunnel.status).toBe(200);
    expect(tunnel.body).toMatch(/^from 127\.0\.0\.[23]$/);
  });

  it('routes by the country in the username, and answers NO_RAY when nothing matches', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await curl([...proxy(`${plan.login}__cr.de`), `http://127.0.0.1:${originPort}/`])).body).toBe(
        'from 127.0.0.2',
      );
      expect((await curl([...proxy(`${plan.login}__cr.fr`), `http://127.0.0.1:${originPort}/`])).body).toBe(
        'from 127.0.0.3',
      );
    }
    const none = await run('curl', [
      '-s',
      '-i',
      ...proxy(`${plan.login}__cr.us`),
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(none.stdout).toMatch(/^HTTP\/1\.1 400 NO_RAY/);
    expect(none.stdout).toContain('Proxy-Status: bytegate; error=destination_not_found');
  });

  it('rotates exits per connection, and keeps one for a session id', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      seen.add((await curl([...proxy(plan.login), `http://127.0.0.1:${originPort}/`])).body);
    }
    expect(seen).toEqual(new Set(['from 127.0.0.2', 'from 127.0.0.3']));
    const sticky = new Set<string>();
    for (let i = 0; i < 10; i++) {
      sticky.add(
        (
          await curl([
            ...proxy(`${plan.login}__sessid.job42;sessttl.5`),
            '-p',
            `http://127.0.0.1:${originPort}/`,
          ])
        ).body,
      );
    }
    expect(sticky.size).toBe(1);
  });

  it('answers each username grammar error with its code', async () => {
    for (const [suffix, code] of [
      ['__country.de', '400 UNKNOWN_PARAM'],
      ['__cr.de;nocr.fr', '400 PARAM_CONFLICT'],
      ['__city.berlin', '400 PARAM_REQUIRES_COUNTRY'],
      ['__sessttl.999', '400 INVALID_VALUE'],
      ['__cr.de;cr.fr', '400 DUPLICATE_PARAM'],
    ] as const) {
      const { stdout } = await run('curl', [
        '-s',
        '-i',
        ...proxy(`${plan.login}${suffix}`),
        `http://127.0.0.1:${originPort}/`,
      ]);
      expect(stdout.split('\r\n')[0], suffix).toBe(`HTTP/1.1 ${code}`);
    }
  });

  it('bills exactly the bytes curl sent and received, and twice that with a target filter', async () => {
    gateway.meter.drain();
    const plain = await curl([
      ...proxy(plan.login),
      '-d',
      'x'.repeat(5000),
      `http://127.0.0.1:${originPort}/?bytes=20000`,
    ]);
    let usage = gateway.meter.drain().get(plan.planId);
    expect(plain.uploadBytes).toBe(5000);
    expect(plain.sentBytes).toBeGreaterThan(5000);
    expect(usage?.bytes).toBe(plain.sentBytes + plain.receivedBytes);
    expect(usage?.extraBytes).toBe(0);
    expect(usage?.requests).toBe(1);

    const filtered = await curl([
      ...proxy(`${plan.login}__cr.de;city.berlin`),
      `http://127.0.0.1:${originPort}/?bytes=3000`,
    ]);
    usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.bytes).toBe(filtered.sentBytes + filtered.receivedBytes);
    expect(usage?.extraBytes).toBe(usage?.bytes);
  });

  it('does not bill the gateway’s own error replies', async () => {
    gateway.meter.drain();
    await run('curl', ['-s', ...proxy(`${plan.login}__cr.us`), `http://127.0.0.1:${originPort}/`]);
    const usage = gateway.meter.drain().get(plan.planId);
    const { stdout } = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{size_request}',
      ...proxy(`${plan.login}__cr.us`),
      `http://127.0.0.1:${originPort}/`,
    ]);
    gateway.meter.drain();
    expect(usage?.bytes).toBe(Number(stdout));
    expect(usage?.errorsByCode).toEqual({ NO_RAY: 1 });
  });

  it('refuses the connection past the thread limit, and frees the slot when one closes', async () => {
    const credentials = `${plan.login}:${plan.password}`;
    const first = await openTunnel(credentials);
    const second = await openTunnel(credentials);
    expect(first.statusLine).toBe('HTTP/1.1 200 Connection Established');
    expect(second.statusLine).toBe('HTTP/1.1 200 Connection Established');
    const third = await openTunnel(credentials);
    expect(third.statusLine).toBe('HTTP/1.1 407 THREADS_EXHAUSTED');
    first.socket.destroy();
    await expect.poll(() => gateway.threads.count(plan.planId)).toBe(1);
    const fourth = await openTunnel(credentials);
    expect(fourth.statusLine).toBe('HTTP/1.1 200 Connection Established');
    second.socket.destroy();
    third.socket.destroy();
    fourth.socket.destroy();
    await expect.poll(() => gateway.threads.count(plan.planId)).toBe(0);
  });

  it('cuts a download when the traffic runs out, within the stated overdraft (a request head and one read)', async () => {
    const started = Date.now();
    const download = await curl([
      '-x',
      `http://${smallPlan.login}:${smallPlan.password}@127.0.0.1:${proxyPort}`,
      `http://127.0.0.1:${originPort}/slow`,
    ]);
    const elapsedMs = Date.now() - started;
    expect(download.body.length).toBeLessThan(3 * 1024 * 1024);
    // Traffic is granted ahead of sending: the download stops at the plan's last byte (billed once the
    // gateway has seen the connection close).
    await expect
      .poll(() => gateway.meter.pendingBilledBytes(smallPlan.planId))
      .toBeGreaterThanOrEqual(200_000);
    const billed = gateway.meter.pendingBilledBytes(smallPlan.planId);
    expect(billed).toBeLessThanOrEqual(200_000 + 80 * 1024);
    expect(download.body.length).toBeLessThan(200_000);
    expect(elapsedMs).toBeLessThan(1500);
    const again = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://${smallPlan.login}:${smallPlan.password}@127.0.0.1:${proxyPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(again.stdout.split('\r\n')[0]).toBe('HTTP/1.1 407 TRAFFIC_EXHAUSTED');
  });

  it('refuses ports outside the open list', async () => {
    const tunnel = await openTunnel(`${plan.login}:${plan.password}`, '127.0.0.1:25');
    expect(tunnel.statusLine).toBe('HTTP/1.1 403 PORT_BLOCKED');
    tunnel.socket.destroy();
  });
});

describe('a gateway that keeps customers out of private networks, with an allowlisted client', () => {
  it('lets the allowlisted address in without credentials, and refuses private targets', async () => {
    const { stdout } = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://127.0.0.1:${privatePort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(stdout.split('\r\n')[0]).toBe('HTTP/1.1 403 PRIVATE_TARGET');
    const metadata = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://127.0.0.1:${privatePort}`,
      'http://169.254.169.254/',
    ]);
    expect(metadata.stdout.split('\r\n')[0]).toBe('HTTP/1.1 403 PRIVATE_TARGET');
  });
});
