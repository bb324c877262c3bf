import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import {
  type AddressInfo,
  connect,
  createServer as createTcpServer,
  type Server as TcpServer,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from '../gateway.ts';
import type { Exit, PlanAccess, PoolType } from '../store.ts';
import { InMemoryGatewayStore } from '../store.ts';
import {
  type FakeProxy,
  startHttpConnectProxy,
  startSilentProxy,
  startSocks5Proxy,
} from '../testing/fake-upstream-proxies.ts';
import { EXIT_CONNECT_TIMEOUT_MS } from './exit-dialer.ts';
import { connectViaUpstream, parseUpstreamUrl } from './upstream.ts';

const run = promisify(execFile);

const customer: PlanAccess = {
  planId: 'plan-dc',
  login: 'bgfrontplan1',
  password: 'Front123',
  poolType: 'datacenter',
  threadLimit: 20,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
/** The account the gateway holds at each upstream provider. */
const account = { username: 'bg-acct', password: 'Up:pass@1' };
/** A payload with every byte value, to see it arrive intact in both directions. */
const payload = randomBytes(1024 * 1024);

let origin: Server;
let originPort: number;
let banner: TcpServer;
let bannerPort: number;
let closedPort: number;
const fakes: Record<
  'http' | 'socks' | 'httpWrong' | 'socksWrong' | 'silent' | 'coalescing' | 'slow',
  FakeProxy
> = {} as never;
// Also an upstream that is another Bytegate gateway: our own HTTP and SOCKS5 listeners as the provider.
let chained: Gateway;
let chainedPorts: ListeningPorts;
let front: Gateway;
let frontPorts: ListeningPorts;
let tempDir: string;

const proxyUrl = (protocol: 'http' | 'socks5', port: number, password = account.password) =>
  `${protocol}://${account.username}:${encodeURIComponent(password)}@127.0.0.1:${port}`;

function upstreamExit(id: string, poolType: PoolType, country: string, url: string): Exit {
  const upstream = parseUpstreamUrl(url);
  if (!upstream) {
    throw new Error(`bad upstream URL in the test: ${url}`);
  }
  return { id, kind: 'upstream', upstream, poolType, country, isRisky: false };
}

const directExit = (id: string, poolType: PoolType, country: string, localAddress = '127.0.0.6'): Exit => ({
  id,
  kind: 'direct',
  poolType,
  country,
  localAddress,
  isRisky: false,
});

/** curl through the front gateway; the body as bytes and the status code. */
async function curlVia(login: string, tunnel: boolean, path = '/', extra: string[] = []) {
  const { stdout } = await run(
    'curl',
    [
      '-s',
      '--max-time',
      '20',
      '-w',
      '\n%{http_code}',
      ...(tunnel ? ['-p'] : []),
      '-x',
      `http://${login}:${customer.password}@127.0.0.1:${frontPorts.httpPort}`,
      ...extra,
      `http://127.0.0.1:${originPort}${path}`,
    ],
    { encoding: 'buffer', maxBuffer: 8 * 1024 * 1024 },
  ).catch((error: { stdout?: Buffer }) => ({ stdout: error.stdout ?? Buffer.alloc(0) }));
  const cut = stdout.lastIndexOf('\n');
  return { body: stdout.subarray(0, cut), status: stdout.subarray(cut + 1).toString() };
}

beforeAll(async () => {
  tempDir = mkdtempSync(join(tmpdir(), 'bytegate-upstream-'));
  origin = createServer((request, response) => {
    if (request.url === '/payload') {
      response.end(payload);
      return;
    }
    if (request.method === 'POST') {
      const hash = createHash('sha256');
      request.on('data', (chunk: Buffer) => hash.update(chunk));
      request.on('end', () => response.end(hash.digest('hex')));
      return;
    }
    response.end(`from ${request.socket.remoteAddress}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  // A server that speaks first, as SMTP or SSH do.
  banner = createTcpServer((socket) => socket.end(payload.subarray(0, 64 * 1024)));
  await new Promise<void>((resolve) => banner.listen(0, '127.0.0.1', resolve));
  bannerPort = (banner.address() as AddressInfo).port;
  closedPort = await new Promise<number>((resolve) => {
    const probe = createTcpServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

  fakes.http = await startHttpConnectProxy(account);
  fakes.socks = await startSocks5Proxy(account);
  fakes.httpWrong = await startHttpConnectProxy(account);
  fakes.socksWrong = await startSocks5Proxy(account);
  fakes.silent = await startSilentProxy();
  fakes.coalescing = await startHttpConnectProxy({ ...account, coalesce: true });
  fakes.slow = await startHttpConnectProxy({ ...account, answerDelayMs: 200 });

  const settings = {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
  };
  chained = createGateway(
    new InMemoryGatewayStore()
      .addPlan({ ...customer, planId: 'plan-up', login: 'bgupstream01', password: 'UpPass123' })
      .addExit(directExit('up-1', 'datacenter', 'US', '127.0.0.5')),
    settings,
  );
  chainedPorts = await chained.listen();
  const chainedUrl = (protocol: 'http' | 'socks5', port: number) =>
    `${protocol}://bgupstream01:UpPass123@127.0.0.1:${port}`;

  const store = new InMemoryGatewayStore()
    .addPlan(customer)
    .addPlan({ ...customer, planId: 'plan-res', login: 'bgfrontresi1', poolType: 'residential' })
    .addPlan({ ...customer, planId: 'plan-mob', login: 'bgfrontmobi1', poolType: 'mobile' })
    .addExit(upstreamExit('fake-http', 'datacenter', 'US', proxyUrl('http', fakes.http.port)))
    .addExit(upstreamExit('fake-socks', 'datacenter', 'GB', proxyUrl('socks5', fakes.socks.port)))
    .addExit(upstreamExit('slow-http', 'datacenter', 'SE', proxyUrl('http', fakes.slow.port)))
    .addExit(upstreamExit('chained-http', 'datacenter', 'FR', chainedUrl('http', chainedPorts.httpPort)))
    .addExit(
      upstreamExit('chained-socks', 'datacenter', 'NL', chainedUrl('socks5', chainedPorts.socksPort ?? 0)),
    )
    // Residential: in each country one broken upstream and one good direct exit.
    .addExit(upstreamExit('wrong-http', 'residential', 'DE', proxyUrl('http', fakes.httpWrong.port, 'no')))
    .addExit(directExit('good-de', 'residential', 'DE'))
    .addExit(
      upstreamExit('wrong-socks', 'residential', 'AT', proxyUrl('socks5', fakes.socksWrong.port, 'no')),
    )
    .addExit(directExit('good-at', 'residential', 'AT'))
    .addExit(upstreamExit('silent', 'residential', 'CH', proxyUrl('http', fakes.silent.port)))
    .addExit(directExit('good-ch', 'residential', 'CH'))
    .addExit(upstreamExit('closed', 'residential', 'IT', proxyUrl('socks5', closedPort)))
    .addExit(directExit('good-it', 'residential', 'IT'))
    // Mobile: every exit broken.
    .addExit(upstreamExit('m-wrong', 'mobile', 'DE', proxyUrl('http', fakes.httpWrong.port, 'no')))
    .addExit(upstreamExit('m-closed', 'mobile', 'DE', proxyUrl('socks5', closedPort)));
  front = createGateway(store, settings);
  frontPorts = await front.listen();
});

afterAll(async () => {
  await front?.close();
  await chained?.close();
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
  await new Promise((resolve) => origin?.close(resolve));
  await new Promise((resolve) => banner?.close(resolve));
  rmSync(tempDir, { recursive: true, force: true });
});

describe('upstream exits', () => {
  it.each([
    ['HTTP CONNECT', 'us', 'http'],
    ['SOCKS5', 'gb', 'socks'],
  ] as const)(
    'carry bytes intact both ways through a %s upstream, with its account',
    async (_, country, fake) => {
      const upload = join(tempDir, 'upload.bin');
      writeFileSync(upload, payload);
      const before = fakes[fake].seen.length;
      for (const tunnel of [false, true]) {
        const login = `${customer.login}__cr.${country}`;
        const download = await curlVia(login, tunnel, '/payload');
        expect(download.status).toBe('200');
        expect(download.body.equals(payload)).toBe(true);
        const sent = await curlVia(login, tunnel, '/', ['--data-binary', `@${upload}`]);
        expect(sent.body.toString()).toBe(createHash('sha256').update(payload).digest('hex'));
      }
      // Three tunnels, each opened with the gateway's upstream account to the resolved target address:
      // the two forward requests took turns on one kept-alive tunnel, each CONNECT had its own.
      expect(fakes[fake].seen.slice(before)).toEqual(
        Array.from({ length: 3 }, () => ({ ...account, target: `127.0.0.1:${originPort}` })),
      );
    },
  );

  it('keep a request body that arrives while a slow upstream is still opening its tunnel', async () => {
    const body = payload.subarray(0, 256 * 1024);
    const auth = Buffer.from(`${customer.login}__cr.se:${customer.password}`).toString('base64');
    const socket = connect(frontPorts.httpPort, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    });
    socket.write(
      `POST http://127.0.0.1:${originPort}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Authorization: Basic ${auth}\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // The upstream answers its CONNECT after 200 ms: the body reaches the gateway before it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write(body);
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(createHash('sha256').update(body).digest('hex'));
  });

  it('work with a real proxy as the upstream: another Bytegate gateway, over HTTP and SOCKS5', async () => {
    chained.meter.drain();
    for (const country of ['fr', 'nl']) {
      for (const tunnel of [false, true]) {
        const answer = await curlVia(`${customer.login}__cr.${country}`, tunnel);
        expect(answer.status).toBe('200');
        expect(answer.body.toString()).toBe('from 127.0.0.5'); // the upstream provider's exit
      }
    }
    expect(chained.meter.drain().get('plan-up')?.requests).toBe(4);
  });

  it('keep the target bytes that arrive in the same packet as the CONNECT answer', async () => {
    const proxy = parseUpstreamUrl(proxyUrl('http', fakes.coalescing.port));
    expect(proxy).not.toBeNull();
    const socket = await connectViaUpstream(
      proxy as NonNullable<typeof proxy>,
      '127.0.0.1',
      bannerPort,
      EXIT_CONNECT_TIMEOUT_MS,
    );
    const chunks: Buffer[] = [];
    for await (const chunk of socket) {
      chunks.push(chunk as Buffer);
    }
    expect(Buffer.concat(chunks).equals(payload.subarray(0, 64 * 1024))).toBe(true);
  });

  it.each([
    ['refuses the password (HTTP 407)', 'de', 'httpWrong'],
    ['refuses the password (SOCKS5)', 'at', 'socksWrong'],
    ['hangs up without answering', 'ch', 'silent'],
    ['is not listening', 'it', undefined],
  ] as const)('fall back once to another exit when an upstream %s', async (_, country, fake) => {
    const before = fake ? fakes[fake].seen.length : 0;
    // Exits are picked at random: go on until the broken one was tried (each try must still succeed).
    for (let i = 0; i < 40; i++) {
      const answer = await curlVia(`bgfrontresi1__cr.${country}`, i % 2 === 1);
      expect(answer.status).toBe('200');
      expect(answer.body.toString()).toBe('from 127.0.0.6');
      if (fake ? fakes[fake].seen.length > before : i >= 5) {
        break;
      }
    }
    if (fake) {
      expect(fakes[fake].seen.length).toBeGreaterThan(before);
      expect(fakes[fake].seen.at(-1)?.password).toBe(fake === 'silent' ? undefined : 'no');
    }
  });

  it('answer 502 NO_HOST_CONNECTION when the second exit fails too', async () => {
    for (const tunnel of [false, true]) {
      const { stdout } = await run('curl', [
        '-s',
        '-i',
        ...(tunnel ? ['-p'] : []),
        '-x',
        `http://bgfrontmobi1:${customer.password}@127.0.0.1:${frontPorts.httpPort}`,
        `http://127.0.0.1:${originPort}/`,
      ]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      expect(stdout.split('\r\n')[0]).toBe('HTTP/1.1 502 NO_HOST_CONNECTION');
      expect(stdout).toContain('X-Bytegate-Error: NO_HOST_CONNECTION');
    }
  });
});

describe('parseUpstreamUrl', () => {
  it('reads http, https and socks5 proxy URLs with credentials', () => {
    expect(parseUpstreamUrl('socks5://us%40r:p%3Ass@203.0.113.9:1080')).toEqual({
      protocol: 'socks5',
      host: '203.0.113.9',
      port: 1080,
      username: 'us@r',
      password: 'p:ss',
    });
    expect(parseUpstreamUrl('socks5h://[2001:db8::1]:1080')?.host).toBe('2001:db8::1');
    expect(parseUpstreamUrl('http://proxy.example.net:3128')).toMatchObject({ protocol: 'http', port: 3128 });
    // URL hides a scheme's default port; an explicit :80 is still a port.
    expect(parseUpstreamUrl('http://proxy.example.net:80')?.port).toBe(80);
    // An HTTPS proxy: CONNECT over TLS to it (a wholesale network's TLS endpoint).
    expect(parseUpstreamUrl('https://u:p@p.example:443')).toEqual({
      protocol: 'http',
      host: 'p.example',
      port: 443,
      username: 'u',
      password: 'p',
      tls: true,
    });
    expect(parseUpstreamUrl('http://p.example:443')?.tls).toBeUndefined();
  });

  it('refuses anything else', () => {
    for (const text of [
      'https://p.example',
      'ftp://p:21',
      'http://p.example',
      'socks4://p:1080',
      'p:1080',
      'http://p:80/path',
      'http://p:3128?x=1',
      'http://p:3128#x',
    ]) {
      expect(parseUpstreamUrl(text), text).toBeNull();
    }
  });
});
