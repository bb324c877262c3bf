import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { curl, freePort } from '../testing/sockets.ts';
import { localPorts } from './exit-dialer.ts';
import { ExitHealth } from './exit-health.ts';
import { parseUpstreamUrl } from './upstream.ts';

// An exit's health from real traffic: every connection the gateway opens through an exit (CONNECT,
// SOCKS5, a forward request's new target connection) is counted as opened, with its connect time, or
// as failed, with the reason; a forward request on a kept-alive target connection opens nothing new.

const plan: PlanAccess = {
  planId: 'plan-health',
  login: 'bghealth0001',
  password: 'Health123',
  poolType: 'datacenter',
  threadLimit: 20,
  trafficLeftBytes: 1024 ** 3,
  isActive: true,
};

let origin: Server;
let originPort: number;
let gateway: Gateway;
let ports: ListeningPorts;

beforeAll(async () => {
  origin = createServer((request, response) => response.end(`from ${request.socket.remoteAddress}`));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  const closedPort = await freePort();
  const upstream = parseUpstreamUrl(`http://127.0.0.1:${closedPort}`);
  if (!upstream) {
    throw new Error('the upstream URL did not parse');
  }
  const location = { poolType: 'datacenter', isRisky: false } as const;
  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addExit({ ...location, id: 'us-ok', kind: 'direct', localAddress: '127.0.0.2', country: 'US' })
    .addExit({ ...location, id: 'de-dead-upstream', kind: 'upstream', upstream, country: 'DE' })
    // TEST-NET-1: no interface of this host holds it, so binding to it fails (EADDRNOTAVAIL).
    .addExit({ ...location, id: 'fr-unbindable', kind: 'direct', localAddress: '192.0.2.1', country: 'FR' });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
  });
  ports = await gateway.listen();
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

const proxy = (country: string) =>
  `http://${plan.login}__cr.${country}:${plan.password}@127.0.0.1:${ports.httpPort}`;
const originUrl = () => `http://127.0.0.1:${originPort}/`;

async function until(check: () => boolean): Promise<void> {
  for (let tries = 0; !check(); tries++) {
    if (tries > 100) {
      throw new Error('not within 2 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('exit health from real traffic', () => {
  it('counts a tunnel opened through an exit, with its connect time', async () => {
    gateway.exitHealth.drain();
    const tunnel = await curl(['-p', '-x', proxy('us'), originUrl()]);
    expect(tunnel).toMatchObject({ status: 200, body: 'from 127.0.0.2' });
    const socks = await curl([
      '--socks5',
      `127.0.0.1:${ports.socksPort}`,
      '--proxy-user',
      `${plan.login}__cr.us:${plan.password}`,
      originUrl(),
    ]);
    expect(socks).toMatchObject({ status: 200, body: 'from 127.0.0.2' });
    const counted = gateway.exitHealth.drain();
    expect([...counted.keys()]).toEqual(['us-ok']);
    const us = counted.get('us-ok');
    expect(us).toMatchObject({ connects: 2, failures: 0, lastError: undefined, lastErrorAt: 0 });
    expect(us?.connectMsTotal).toBeGreaterThanOrEqual(0);
    expect(us?.connectMsTotal).toBeLessThan(2000);
  });

  it('counts a forward request only when it opens a new target connection', async () => {
    gateway.exitHealth.drain();
    // One curl, two requests on one kept-alive client connection: the second reuses the target connection.
    const twice = await curl(['-x', proxy('us'), originUrl(), originUrl()]);
    expect(twice.body.match(/from 127\.0\.0\.2/g)).toHaveLength(2);
    expect(gateway.exitHealth.drain().get('us-ok')).toMatchObject({ connects: 1, failures: 0 });
  });

  it('counts failures with their reason: an upstream that refuses, an address that cannot be bound', async () => {
    gateway.exitHealth.drain();
    const before = Date.now();
    // The only German exit is tried, then tried once more (there is no other): two failures, then 502.
    const upstream = await curl(['-x', proxy('de'), originUrl()]);
    expect(upstream.status).toBe(502);
    const direct = await curl(['-x', proxy('fr'), originUrl()]);
    expect(direct.status).toBe(502);
    const counted = gateway.exitHealth.drain();
    const dead = counted.get('de-dead-upstream');
    expect(dead).toMatchObject({ connects: 0, failures: 2, connectMsTotal: 0 });
    expect(dead?.lastError).toMatch(/ECONNREFUSED/);
    expect(dead?.lastErrorAt).toBeGreaterThanOrEqual(before);
    const unbindable = counted.get('fr-unbindable');
    expect(unbindable).toMatchObject({ connects: 0, failures: 2 });
    expect(unbindable?.lastError).toMatch(/EADDRNOTAVAIL/);
    expect(counted.has('us-ok')).toBe(false);
  });

  it('chooses the local ports of a bound exit itself, and tries the next when one is taken towards the target', async () => {
    gateway.exitHealth.drain();
    // Many tunnels in a row through the exit bound to 127.0.0.2: each from its own port, none searched by bind().
    for (let i = 0; i < 20; i++) {
      expect(await curl(['-p', '-x', proxy('us'), originUrl()])).toMatchObject({
        status: 200,
        body: 'from 127.0.0.2',
      });
    }
    // The port the gateway would take next is held towards the same target by another socket: connect
    // fails with EADDRNOTAVAIL, and the next port is tried; the exit has not failed.
    const next = localPorts.peek('127.0.0.2') as number;
    const squatter = connect({
      host: '127.0.0.1',
      port: originPort,
      localAddress: '127.0.0.2',
      localPort: next,
    });
    await new Promise((resolve) => squatter.once('connect', resolve));
    try {
      expect(await curl(['-p', '-x', proxy('us'), originUrl()])).toMatchObject({
        status: 200,
        body: 'from 127.0.0.2',
      });
      expect(localPorts.peek('127.0.0.2')).toBe(next + 2);
    } finally {
      squatter.destroy();
    }
    expect(gateway.exitHealth.drain().get('us-ok')).toMatchObject({ connects: 21, failures: 0 });
  });

  it('reports the connections this process holds open', async () => {
    const held = connect(ports.httpPort, '127.0.0.1');
    await new Promise((resolve) => held.once('connect', resolve));
    await until(() => gateway.connections().authenticating === 1);
    expect(gateway.connections()).toMatchObject({ open: 1, authenticating: 1 });
    held.write(
      `CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nProxy-Authorization: Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}\r\n\r\n`,
    );
    await until(() => gateway.connections().byPlan.get(plan.planId) === 1);
    expect(gateway.connections()).toMatchObject({ open: 1, authenticating: 0 });
    held.destroy();
    await until(() => gateway.connections().open === 0);
    expect(gateway.connections().byPlan.size).toBe(0);
  });
});

describe('ExitHealth', () => {
  it('puts a failed drain back under what came since, keeping the latest error', () => {
    const health = new ExitHealth();
    health.opened('a', 12);
    health.failed('a', new Error('older'));
    const drained = health.drain();
    const older = drained.get('a')?.lastErrorAt ?? 0;
    health.opened('a', 8);
    health.restore(drained);
    expect(health.drain().get('a')).toEqual({
      connects: 2,
      failures: 1,
      connectMsTotal: 20,
      lastError: 'older',
      lastErrorAt: older,
    });
    expect(health.drain().size).toBe(0);
  });
});
