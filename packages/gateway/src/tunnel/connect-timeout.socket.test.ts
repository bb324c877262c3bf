import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { connectIpv4, curl, greeting, rawSocks, run, userPass } from '../testing/sockets.ts';

// A target that never answers the handshake (a firewall that drops SYNs): the gateway gives each exit a
// bounded time to reach it, tries a second exit, then answers 502, instead of holding the client for the
// two minutes the OS would wait.

const plan: PlanAccess = {
  planId: 'plan-timeout',
  login: 'bgtimeout001',
  password: 'Secret123',
  poolType: 'datacenter',
  threadLimit: 2,
  trafficLeftBytes: 1024 ** 3,
  isActive: true,
};
const TIMEOUT_MS = 400;

let blackhole: ChildProcess;
let blackholePort: number;
const fillers: Socket[] = [];
let origin: Server;
let originPort: number;
let gateway: Gateway;
let ports: ListeningPorts;

/**
 * A listening socket that never accepts, with a backlog of one: once one connection waits in its queue,
 * the kernel drops every further SYN, and a connect hangs. Node always accepts, so Python holds it.
 */
async function startBlackhole(): Promise<void> {
  blackhole = spawn('python3', [
    '-c',
    [
      'import socket, time',
      's = socket.socket()',
      "s.bind(('127.0.0.1', 0))",
      's.listen(0)',
      'print(s.getsockname()[1], flush=True)',
      'time.sleep(600)',
    ].join('\n'),
  ]);
  blackholePort = await new Promise<number>((resolve, reject) => {
    blackhole.once('error', reject);
    blackhole.stdout?.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
  });
  const filler = connect(blackholePort, '127.0.0.1');
  filler.on('error', () => undefined);
  fillers.push(filler);
  await new Promise((resolve) => filler.once('connect', resolve));
}

/** Whether a plain connect to the port opens within `ms` (the blackhole's queue is full if it does not). */
function opensWithin(port: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    fillers.push(socket);
    socket.on('error', () => resolve(false));
    socket.once('connect', () => resolve(true));
    setTimeout(() => resolve(false), ms);
  });
}

beforeAll(async () => {
  await startBlackhole();
  origin = createServer((_, response) => response.end('still here'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  const exit = { kind: 'direct', poolType: 'datacenter', country: 'DE', isRisky: false } as const;
  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addExit({ ...exit, id: 'dc-2', localAddress: '127.0.0.2' })
    .addExit({ ...exit, id: 'dc-3', localAddress: '127.0.0.3' });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([blackholePort, originPort]),
    exitConnectTimeoutMs: TIMEOUT_MS,
  });
  ports = await gateway.listen();
});

afterAll(async () => {
  for (const socket of fillers) {
    socket.destroy();
  }
  blackhole?.kill();
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

const proxy = () => `http://${plan.login}:${plan.password}@127.0.0.1:${ports.httpPort}`;

describe('a target that never answers the TCP handshake', () => {
  it('really hangs a plain connect (the premise of these tests)', async () => {
    expect(await opensWithin(blackholePort, 1500)).toBe(false);
  });

  it.each([
    ['a forward request', false],
    ['a CONNECT tunnel', true],
  ])('gets 502 NO_HOST_CONNECTION for %s after two exits each had their time', async (_, tunnel) => {
    const started = Date.now();
    const { stdout } = await run('curl', [
      '-s',
      '-i',
      ...(tunnel ? ['-p'] : []),
      '-x',
      proxy(),
      `http://127.0.0.1:${blackholePort}/`,
    ]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const elapsed = Date.now() - started;
    expect(stdout.split('\r\n')[0]).toBe('HTTP/1.1 502 NO_HOST_CONNECTION');
    // Two exits, each given the timeout; far below the OS's two minutes (and curl's own 10 s limit).
    expect(elapsed).toBeGreaterThanOrEqual(2 * TIMEOUT_MS);
    expect(elapsed).toBeLessThan(8000);
  });

  it('gets SOCKS5 reply 0x04 (host unreachable) over SOCKS5', async () => {
    const reply = await rawSocks(
      ports.socksPort ?? 0,
      [greeting(0x02), userPass(plan.login, plan.password), connectIpv4(blackholePort)],
      8000,
    );
    // Greeting answer (2 bytes), auth answer (2 bytes), then the request's reply: VER, REP.
    expect([...reply.subarray(4, 6)]).toEqual([0x05, 0x04]);
  });

  it('leaves no thread taken: the plan (2 threads) still reaches a live target afterwards', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await curl(['-x', proxy(), `http://127.0.0.1:${originPort}/`]);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe('still here');
    }
  });
});
