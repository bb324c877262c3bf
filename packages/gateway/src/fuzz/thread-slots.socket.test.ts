import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from '../gateway.ts';
import { splitAbsoluteUrl } from '../http1/messages.ts';
import { parseCredentials, parseGreeting, parseRequest } from '../listeners/socks5-messages.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { connectIpv4, curl, freeRange, greeting, rawSocks, userPass } from '../testing/sockets.ts';
import { cutPoints, mutatedSeeds, randomBytes, splitAt, splits } from './harness.ts';
import { HTTP_DICTIONARY } from './targets/http-head.ts';

// The fuzz targets' inputs over real sockets: a few thousand mutated HTTP heads and SOCKS5 handshakes,
// sent in pieces and cut off at random moments, against a gateway whose plans have thread limits. When
// they are all gone, every thread slot must have come back and the gateway must still serve.

const COUNT = 3000;
const CONCURRENCY = 16;
/** No new connection is started past this; the test then checks what the flood left behind. */
const FLOOD_MS = 30_000;
const THREAD_LIMIT = 24;
/** The allowlisted plan's clients connect from this address (no credentials needed). */
const ALLOWLISTED_SOURCE = '127.0.0.2';

const plan: PlanAccess = {
  planId: 'plan-fuzz',
  login: 'bgfuzzlogin1',
  password: 'Secret123',
  poolType: 'datacenter',
  threadLimit: THREAD_LIMIT,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const allowlistedPlan: PlanAccess = { ...plan, planId: 'plan-fuzz-allow', login: 'bgfuzzallow1' };

let origin: Server;
let originPort: number;
let gateway: Gateway;
let ports: ListeningPorts;

const basic = (user: string, password = plan.password) =>
  `Proxy-Authorization: Basic ${Buffer.from(`${user}:${password}`).toString('base64')}\r\n`;

beforeAll(async () => {
  origin = createServer((request, response) => {
    request.resume();
    request.once('end', () => response.end('fuzz-origin'));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addPlan(allowlistedPlan, [ALLOWLISTED_SOURCE])
    .addExit({ id: 'us-1', kind: 'direct', poolType: 'datacenter', country: 'US', isRisky: false });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    stickyPorts: await freeRange(2),
    allowPrivateTargets: true,
    // Only the origin's port is open: a target that mutation moved elsewhere is refused before any
    // lookup or connect (and the inputs are filtered so no other host is ever tried on this port).
    openPorts: new Set([originPort]),
  });
  ports = await gateway.listen();
});

afterAll(async () => {
  await gateway?.close();
  origin?.closeAllConnections();
  await new Promise((resolve) => origin?.close(resolve));
});

/** Real client traffic to start from, with good, wrong and no credentials and with targeting. */
function httpSeeds(): Buffer[] {
  const target = `http://127.0.0.1:${originPort}`;
  const authority = `127.0.0.1:${originPort}`;
  const get = (path: string, auth: string, extra = '') =>
    `GET ${target}${path} HTTP/1.1\r\nHost: x\r\n${auth}${extra}\r\n`;
  return [
    get('/a', basic(plan.login)),
    get('/a', basic(plan.login)) + get('/b', basic(plan.login), 'Connection: close\r\n'),
    get('/a', basic(`${plan.login}__cr.us;sessid.s1`)),
    get('/a', basic(`${plan.login}__city.x`)),
    get('/a', basic(plan.login, 'wrong')),
    get('/a', ''),
    get('/ws', basic(plan.login), 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: eA==\r\n'),
    `POST ${target}/c HTTP/1.1\r\nHost: x\r\n${basic(plan.login)}Transfer-Encoding: chunked\r\n\r\n5;e=1\r\nhello\r\n0\r\nT: 1\r\n\r\n`,
    `POST ${target}/l HTTP/1.1\r\nHost: x\r\n${basic(plan.login)}Content-Length: 10\r\n\r\nhello`,
    `GET ${target}/old HTTP/1.0\r\n${basic(plan.login)}Connection: keep-alive\r\n\r\n`,
    `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${basic(plan.login)}\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n`,
    `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`,
  ].map((text) => Buffer.from(text, 'latin1'));
}

function socksSeeds(): Buffer[] {
  const early = Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  const request = connectIpv4(originPort);
  return [
    Buffer.concat([greeting(0x00, 0x02), userPass(plan.login, plan.password), request, early]),
    Buffer.concat([greeting(0x02), userPass(`${plan.login}__cr.us`, plan.password), request]),
    Buffer.concat([greeting(0x02), userPass(plan.login, 'wrong'), request]),
    Buffer.concat([greeting(0x00), request, early]),
  ];
}

/**
 * Whether every target the gateway could read from `bytes` is the origin, or is refused before any
 * lookup or connection because its port is not the origin's (the only open one). Traffic from a test
 * stays on this machine, and asks no DNS server anything.
 */
function staysLocal(bytes: Buffer): boolean {
  const port = String(originPort);
  // Any request line is "<method> <target> HTTP/1.x" followed by CRLF; the target has no space.
  const text = bytes.toString('latin1');
  for (const match of text.matchAll(/ HTTP\/1\.[01]\r\n/g)) {
    const target = /[!-~\x80-\xff]*$/.exec(text.slice(0, match.index))?.[0] ?? '';
    if (!target.includes(port) || target === `127.0.0.1:${port}`) {
      continue;
    }
    const url = splitAbsoluteUrl(target);
    if (!(url && 'host' in url && url.host === '127.0.0.1')) {
      return false;
    }
  }
  // The SOCKS5 request the handshake would reach, if any (a sticky port speaks both).
  let rest = bytes;
  const first = parseGreeting(rest);
  if (first.kind !== 'message') {
    return true;
  }
  rest = rest.subarray(first.size);
  if (first.message.methods.includes(0x02)) {
    const credentials = parseCredentials(rest);
    if (credentials.kind !== 'message') {
      return true;
    }
    rest = rest.subarray(credentials.size);
  }
  const request = parseRequest(rest);
  if (request.kind !== 'message' || request.message.port !== originPort) {
    return true;
  }
  const { host } = request.message;
  return /^127\.\d+\.\d+\.\d+$/.test(host) || host === '0:0:0:0:0:0:0:1';
}

interface Client {
  port: 'http' | 'socks' | 'sticky';
  source: string;
  bytes: Buffer;
  cuts: number[];
  gapMs: number;
  /** How long the client waits for the gateway to close before it goes itself. */
  holdMs: number;
  halfClose: boolean;
}

function clients(): fc.Arbitrary<Client> {
  const http = httpSeeds();
  const socks = socksSeeds();
  const bytes = (seeds: Buffer[]) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...seeds) },
      { weight: 5, arbitrary: mutatedSeeds(seeds, HTTP_DICTIONARY, 3) },
      { weight: 1, arbitrary: randomBytes(64) },
    );
  return fc
    .oneof(
      {
        weight: 2,
        arbitrary: fc.record({ port: fc.constant('http' as const), bytes: bytes(http) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ port: fc.constant('socks' as const), bytes: bytes(socks) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          port: fc.constant('sticky' as const),
          bytes: fc.oneof(bytes(http), bytes(socks)),
        }),
      },
    )
    .chain((picked) =>
      fc.record({
        port: fc.constant(picked.port),
        bytes: fc.constant(picked.bytes),
        source: fc.constantFrom('127.0.0.1', '127.0.0.1', ALLOWLISTED_SOURCE),
        cuts: splits,
        gapMs: fc.constantFrom(0, 0, 1, 3),
        holdMs: fc.integer({ min: 0, max: 100 }),
        halfClose: fc.boolean(),
      }),
    )
    .filter(({ bytes }) => staysLocal(bytes));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One client: connects, sends its bytes in pieces, waits a little, leaves (or was closed first). */
function runClient(client: Client): Promise<void> {
  const port =
    client.port === 'http'
      ? ports.httpPort
      : client.port === 'socks'
        ? (ports.socksPort ?? 0)
        : (ports.stickyPorts?.first ?? 0);
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: client.source });
    socket.on('error', () => undefined);
    socket.resume();
    const cap = setTimeout(() => socket.destroy(), 2000);
    socket.once('close', () => {
      clearTimeout(cap);
      resolve();
    });
    void (async () => {
      for (const piece of splitAt(client.bytes, cutPoints(client.bytes.length, client.cuts))) {
        if (socket.destroyed) {
          return;
        }
        socket.write(piece);
        if (client.gapMs > 0) {
          await sleep(client.gapMs);
        }
      }
      if (client.halfClose && !socket.destroyed) {
        socket.end();
      }
      await sleep(client.holdMs);
      socket.destroy();
    })();
  });
}

/** A CONNECT tunnel with the plan's credentials: answers the status line and the open socket. */
function openTunnel(): Promise<{ status: string; close: () => void }> {
  return new Promise((resolve) => {
    const socket = connect(ports.httpPort, '127.0.0.1');
    socket.on('error', () => undefined);
    const authority = `127.0.0.1:${originPort}`;
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${basic(plan.login)}\r\n`);
    socket.once('data', (chunk: Buffer) => {
      resolve({ status: chunk.toString('latin1').split('\r\n')[0] ?? '', close: () => socket.destroy() });
    });
  });
}

describe('the gateway after thousands of fuzzed connections', () => {
  it('gets every thread slot back and still serves', { timeout: 90_000 }, async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 0x7fffffff);
    const inputs = fc.sample(clients(), { numRuns: COUNT, seed });
    const started = Date.now();
    let next = 0;
    let sent = 0;
    let peakSlots = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < inputs.length && Date.now() - started < FLOOD_MS) {
          const client = inputs[next] as Client;
          next += 1;
          await runClient(client);
          sent += 1;
          peakSlots = Math.max(peakSlots, gateway.threads.count(plan.planId));
        }
      }),
    );
    expect(sent, `seed ${seed}`).toBeGreaterThan(COUNT / 3);
    // The flood was let in: connections held slots while it ran.
    expect(peakSlots, `seed ${seed}`).toBeGreaterThan(0);

    // Every connection is gone on the client side; the gateway hears of it within moments.
    for (let waited = 0; waited < 5000; waited += 50) {
      if (gateway.threads.count(plan.planId) === 0 && gateway.threads.count(allowlistedPlan.planId) === 0) {
        break;
      }
      await sleep(50);
    }
    expect(gateway.threads.count(plan.planId), `seed ${seed}`).toBe(0);
    expect(gateway.threads.count(allowlistedPlan.planId), `seed ${seed}`).toBe(0);

    // All of the plan's slots can be taken again at once, and the limit still holds past them.
    const tunnels = await Promise.all(Array.from({ length: THREAD_LIMIT }, openTunnel));
    expect(tunnels.map(({ status }) => status)).toEqual(
      Array(THREAD_LIMIT).fill('HTTP/1.1 200 Connection Established'),
    );
    const over = await openTunnel();
    expect(over.status).toBe('HTTP/1.1 407 THREADS_EXHAUSTED');
    for (const tunnel of [...tunnels, over]) {
      tunnel.close();
    }

    // And it still answers plain requests on both protocols.
    const forward = await curl([
      '-x',
      `http://${plan.login}:${plan.password}@127.0.0.1:${ports.httpPort}`,
      `http://127.0.0.1:${originPort}/after`,
    ]);
    expect(forward).toMatchObject({ status: 200, body: 'fuzz-origin' });
    const socks = await rawSocks(ports.socksPort ?? 0, [
      greeting(0x02),
      userPass(plan.login, plan.password),
      connectIpv4(originPort),
    ]);
    expect([...socks.subarray(0, 4)]).toEqual([0x05, 0x02, 0x01, 0x00]);
    expect(socks[5]).toBe(0x00);
  });
});
