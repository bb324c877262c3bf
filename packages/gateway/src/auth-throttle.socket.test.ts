import { connect } from 'node:net';
import { SocksClient } from 'socks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from './gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from './store.ts';

// Audit issue 28, item 10: failed proxy logins are slowed, then refused (AUTH_THROTTLED), per (address,
// login) and per address, while a right password is never slowed or refused by them. Clients take
// distinct loopback addresses (127.0.0.x) to stand for distinct machines. Small limits keep it quick.

const LIMITS = {
  windowMs: 60_000,
  pairSlowAfter: 2,
  addressSlowAfter: 6,
  loginSlowAfter: 100,
  delayStepMs: 150,
  maxDelayMs: 300,
  pairRefuseAfter: 5,
  addressRefuseAfter: 10,
};

const plan = (n: number): PlanAccess => ({
  planId: `plan-throttle-${n}`,
  login: `bgthrottle${n}`,
  password: `Secret${n}xyz`,
  poolType: 'datacenter',
  threadLimit: 100,
  trafficLeftBytes: 1024 * 1024 * 1024,
  isActive: true,
});
const first = plan(1);
const second = plan(2);

let gateway: Gateway;
let httpPort: number;
let socksPort: number;

beforeAll(async () => {
  const store = new InMemoryGatewayStore().addPlan(first).addPlan(second).addExit({
    id: 'local',
    kind: 'direct',
    poolType: 'datacenter',
    country: 'US',
    isRisky: false,
    localAddress: '127.0.0.1',
  });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    authThrottle: LIMITS,
  });
  const ports = await gateway.listen();
  httpPort = ports.httpPort;
  socksPort = ports.socksPort as number;
});

afterAll(async () => {
  await gateway?.close();
});

/**
 * A CONNECT from `from` with `login:password` to the gateway's own port (open or not, admission answers
 * first): the status line, its Retry-After, and how long the answer took.
 */
function connectFrom(
  from: string,
  login: string,
  password: string,
): Promise<{ status: string; retryAfter: string | null; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ port: httpPort, host: '127.0.0.1', localAddress: from }, () => {
      socket.write(
        `CONNECT 127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1:9\r\nProxy-Authorization: Basic ${Buffer.from(`${login}:${password}`).toString('base64')}\r\n\r\n`,
      );
    });
    socket.once('data', (chunk: Buffer) => {
      const head = chunk.toString('latin1');
      socket.destroy();
      resolve({
        status: head.split('\r\n')[0] ?? '',
        retryAfter: /\r\nRetry-After: (\d+)/i.exec(head)?.[1] ?? null,
        ms: performance.now() - started,
      });
    });
    socket.once('error', reject);
  });
}

const WRONG = 'HTTP/1.1 407 NO_USER';
const THROTTLED = 'HTTP/1.1 429 AUTH_THROTTLED';
/** Past admission: the port is closed for customers, which a right password reaches. */
const ADMITTED = /^HTTP\/1\.1 (200|403|502)/;

describe('failed proxy logins', () => {
  it('are slowed, then refused, for one login from one address; its right password elsewhere goes through', async () => {
    const answers = [];
    for (let i = 0; i < LIMITS.pairRefuseAfter + 3; i++) {
      answers.push(await connectFrom('127.0.0.5', first.login, `guess${i}`));
    }
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.slice(0, LIMITS.pairRefuseAfter)).toEqual(Array(LIMITS.pairRefuseAfter).fill(WRONG));
    expect(statuses.slice(LIMITS.pairRefuseAfter)).toEqual(Array(3).fill(THROTTLED));
    // Past pairSlowAfter a wrong password waits before its refusal.
    for (const answer of answers.slice(LIMITS.pairSlowAfter, LIMITS.pairRefuseAfter)) {
      expect(answer.ms).toBeGreaterThanOrEqual(LIMITS.delayStepMs - 10);
    }
    expect(Number(answers.at(-1)?.retryAfter)).toBeGreaterThan(0);
    // Refused without a check, even the right password: no guess gets through from there meanwhile.
    expect((await connectFrom('127.0.0.5', first.login, first.password)).status).toBe(THROTTLED);

    // The same login from another address, and another login from the throttled one: at once.
    const elsewhere = await connectFrom('127.0.0.6', first.login, first.password);
    expect(elsewhere.status).toMatch(ADMITTED);
    const otherLogin = await connectFrom('127.0.0.5', second.login, second.password);
    expect(otherLogin.status).toMatch(ADMITTED);
    expect(otherLogin.ms).toBeLessThan(LIMITS.delayStepMs * 5);
  });

  it('from one address over many logins are refused, while a right password from it goes through', async () => {
    const statuses = [];
    for (let i = 0; i < LIMITS.addressRefuseAfter + 2; i++) {
      statuses.push((await connectFrom('127.0.0.8', `bgnobody${i}`, 'x')).status);
    }
    expect(statuses.slice(0, LIMITS.addressRefuseAfter)).toEqual(
      Array(LIMITS.addressRefuseAfter).fill(WRONG),
    );
    expect(statuses.slice(LIMITS.addressRefuseAfter)).toEqual([THROTTLED, THROTTLED]);
    expect((await connectFrom('127.0.0.8', first.login, 'wrong')).status).toBe(THROTTLED);
    const right = await connectFrom('127.0.0.8', first.login, first.password);
    expect(right.status).toMatch(ADMITTED);
  });

  it('never slow or refuse an address that authenticates correctly', async () => {
    for (let i = 0; i < 30; i++) {
      const answer = await connectFrom('127.0.0.7', second.login, second.password);
      expect(answer.status).toMatch(ADMITTED);
    }
  });

  it('are refused on SOCKS5 too (RFC 1929 failure; the count says why)', async () => {
    const before = gateway.stats().refusals.AUTH_THROTTLED;
    for (let i = 0; i < LIMITS.pairRefuseAfter + 2; i++) {
      await expect(
        SocksClient.createConnection({
          proxy: { host: '127.0.0.1', port: socksPort, type: 5, userId: second.login, password: `g${i}` },
          command: 'connect',
          destination: { host: '127.0.0.1', port: 9 },
          timeout: 5000,
        }),
      ).rejects.toThrow();
    }
    expect(gateway.stats().refusals.AUTH_THROTTLED - before).toBe(2);
  });
});
