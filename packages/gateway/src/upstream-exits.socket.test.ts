import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from './gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from './store.ts';
import { parseUpstreamUrl } from './tunnel/upstream.ts';

const run = promisify(execFile);

const customer: PlanAccess = {
  planId: 'plan-front',
  login: 'bgfrontplan1',
  password: 'Front123',
  poolType: 'datacenter',
  threadLimit: 20,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
/** The account the front gateway holds at the upstream provider. */
const upstreamAccount: PlanAccess = {
  ...customer,
  planId: 'plan-up',
  login: 'bgupstream01',
  password: 'UpPass123',
};

let origin: Server;
let originPort: number;
// The upstream provider is another Bytegate gateway: a real HTTP CONNECT and SOCKS5 proxy with auth.
let upstream: Gateway;
let upstreamPorts: ListeningPorts;
let front: Gateway;
let frontPorts: ListeningPorts;

const upstreamUrl = (protocol: 'http' | 'socks5', password = upstreamAccount.password, port?: number) => {
  const defaultPort = protocol === 'http' ? upstreamPorts.httpPort : upstreamPorts.socksPort;
  return parseUpstreamUrl(
    `${protocol}://${upstreamAccount.login}:${password}@127.0.0.1:${port ?? defaultPort}`,
  );
};

async function fetchVia(username: string, tunnel: boolean) {
  const { stdout } = await run('curl', [
    '-s',
    '--max-time',
    '15',
    '-w',
    '\n%{http_code}',
    ...(tunnel ? ['-p'] : []),
    '-x',
    `http://${username}:${customer.password}@127.0.0.1:${frontPorts.httpPort}`,
    `http://127.0.0.1:${originPort}/?bytes=0`,
  ]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const cut = stdout.lastIndexOf('\n');
  return { body: stdout.slice(0, cut), status: stdout.slice(cut + 1) };
}

beforeAll(async () => {
  origin = createServer((request, response) => response.end(`from ${request.socket.remoteAddress}`));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  const closedPort = await new Promise<number>((resolve) => {
    const probe = createTcpServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const policy = {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
  };

  upstream = createGateway(
    new InMemoryGatewayStore().addPlan(upstreamAccount).addExit({
      id: 'up-1',
      kind: 'direct',
      poolType: 'datacenter',
      localAddress: '127.0.0.5',
      country: 'US',
      isRisky: false,
    }),
    policy,
  );
  upstreamPorts = await upstream.listen();

  const upstreamExit = (
    id: string,
    poolType: PlanAccess['poolType'],
    country: string,
    proxy: ReturnType<typeof upstreamUrl>,
  ) => {
    if (!proxy) {
      throw new Error('bad upstream URL in the test');
    }
    return { id, kind: 'upstream' as const, upstream: proxy, poolType, country, isRisky: false };
  };
  const store = new InMemoryGatewayStore()
    .addPlan(customer)
    .addPlan({ ...customer, planId: 'plan-res', login: 'bgfrontresi1', poolType: 'residential' })
    .addPlan({ ...customer, planId: 'plan-mob', login: 'bgfrontmobi1', poolType: 'mobile' })
    .addExit(upstreamExit('via-http', 'datacenter', 'US', upstreamUrl('http')))
    .addExit(upstreamExit('via-socks', 'datacenter', 'GB', upstreamUrl('socks5')))
    .addExit(upstreamExit('bad-password', 'residential', 'DE', upstreamUrl('socks5', 'wrong')))
    .addExit({
      id: 'good-direct',
      kind: 'direct',
      poolType: 'residential',
      localAddress: '127.0.0.6',
      country: 'DE',
      isRisky: false,
    })
    .addExit(upstreamExit('bad-http-password', 'mobile', 'DE', upstreamUrl('http', 'wrong')))
    .addExit(
      upstreamExit(
        'closed-port',
        'mobile',
        'DE',
        upstreamUrl('socks5', upstreamAccount.password, closedPort),
      ),
    );
  front = createGateway(store, policy);
  frontPorts = await front.listen();
});

afterAll(async () => {
  await front?.close();
  await upstream?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

describe('upstream exits', () => {
  it('relay forward HTTP and CONNECT through an HTTP upstream, with the upstream account', async () => {
    upstream.meter.drain();
    for (const tunnel of [false, true]) {
      const answer = await fetchVia(`${customer.login}__cr.us`, tunnel);
      expect(answer.status).toBe('200');
      // The origin sees the upstream provider's exit, not ours.
      expect(answer.body).toBe('from 127.0.0.5');
    }
    expect(upstream.meter.drain().get(upstreamAccount.planId)?.requests).toBe(2);
  });

  it('relay forward HTTP and CONNECT through a SOCKS5 upstream', async () => {
    for (const tunnel of [false, true]) {
      const answer = await fetchVia(`${customer.login}__cr.gb`, tunnel);
      expect(answer.status).toBe('200');
      expect(answer.body).toBe('from 127.0.0.5');
    }
  });

  it('fall back once to another exit when an upstream refuses', async () => {
    for (let i = 0; i < 8; i++) {
      const answer = await fetchVia('bgfrontresi1__cr.de', i % 2 === 0);
      expect(answer.status).toBe('200');
      expect(answer.body).toBe('from 127.0.0.6');
    }
  });

  it('answer 502 NO_HOST_CONNECTION when every matching upstream fails', async () => {
    const { stdout } = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://bgfrontmobi1:${customer.password}@127.0.0.1:${frontPorts.httpPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(stdout.split('\r\n')[0]).toBe('HTTP/1.1 502 NO_HOST_CONNECTION');
  });
});

describe('parseUpstreamUrl', () => {
  it('reads http and socks5 proxy URLs with credentials', () => {
    expect(parseUpstreamUrl('socks5://us%40r:p%3Ass@203.0.113.9:1080')).toEqual({
      protocol: 'socks5',
      host: '203.0.113.9',
      port: 1080,
      username: 'us@r',
      password: 'p:ss',
    });
    expect(parseUpstreamUrl('socks5h://[2001:db8::1]:1080')?.host).toBe('2001:db8::1');
    expect(parseUpstreamUrl('http://proxy.example.net:3128')).toMatchObject({ protocol: 'http', port: 3128 });
  });

  it('refuses anything else', () => {
    for (const text of [
      'https://p.example:443',
      'ftp://p:21',
      'http://p.example',
      'socks4://p:1080',
      'p:1080',
      'http://p:80/path',
    ]) {
      expect(parseUpstreamUrl(text), text).toBeNull();
    }
  });
});
