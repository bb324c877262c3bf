import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { SocksClient } from 'socks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { BLOCKED_HOST_CATEGORIES, DomainSet } from './blocked-hosts.ts';

const run = promisify(execFile);

const plan: PlanAccess = {
  planId: 'plan-plain',
  login: 'bgplainplan1',
  password: 'Secret123',
  poolType: 'datacenter',
  threadLimit: 10,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};

let origin: Server;
let originPort: number;
let gateway: Gateway;
let ports: ListeningPorts;
let unblockedPlan: PlanAccess;

/** curl -i through the gateway: answers the first status line. */
async function statusLine(login: string, args: string[]): Promise<string> {
  const { stdout } = await run('curl', [
    '-s',
    '-i',
    '--max-time',
    '10',
    '-x',
    `http://${login}:${plan.password}@127.0.0.1:${ports.httpPort}`,
    ...args,
  ]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return stdout.split('\r\n')[0] ?? '';
}

beforeAll(async () => {
  origin = createServer((_request, response) => response.end('reached'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  unblockedPlan = {
    ...plan,
    planId: 'plan-unblocked',
    login: 'bgunblocked1',
    unblocks: { ports: new Set([originPort]), hosts: new DomainSet(['localhost']) },
  };
  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addPlan(unblockedPlan)
    .addExit({ id: 'de-1', kind: 'direct', poolType: 'datacenter', country: 'DE', isRisky: false });
  // `localhost` joins the blocked list here so that an unblocked host can be reached without internet.
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([80, 443]),
    blockedHosts: new DomainSet([...Object.values(BLOCKED_HOST_CATEGORIES).flat(), 'localhost']),
  });
  ports = await gateway.listen();
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

describe('blocked hosts and ports', () => {
  it('refuses blocked categories by name, before any DNS, over forward HTTP and CONNECT', async () => {
    expect(await statusLine(plan.login, ['http://www.paypal.com/'])).toBe('HTTP/1.1 403 HOST_BLOCKED');
    expect(await statusLine(plan.login, ['https://www.irs.gov/'])).toBe('HTTP/1.1 403 HOST_BLOCKED');
    expect(await statusLine(plan.login, ['-p', 'http://WWW.VFSGLOBAL.COM./'])).toBe(
      'HTTP/1.1 403 HOST_BLOCKED',
    );
    const { stdout } = await run('curl', [
      '-s',
      '-i',
      '-x',
      `http://${plan.login}:${plan.password}@127.0.0.1:${ports.httpPort}`,
      'http://popads.net/',
    ]);
    expect(stdout).toContain('X-Bytegate-Error: HOST_BLOCKED');
    expect(stdout).toContain('Proxy-Status: bytegate; error=destination_ip_prohibited');
  });

  it('answers REP 0x02 to a blocked host over SOCKS5', async () => {
    const refused = await SocksClient.createConnection({
      proxy: {
        host: '127.0.0.1',
        port: ports.socksPort ?? 0,
        type: 5,
        userId: plan.login,
        password: plan.password,
      },
      command: 'connect',
      destination: { host: 'api.stripe.com', port: 443 },
    }).catch((error: Error) => error);
    expect(String(refused)).toMatch(/NotAllowed/);
  });

  it("opens a customer's unblocked ports and hosts to that customer only", async () => {
    const target = `http://localhost:${originPort}/`;
    expect(await statusLine(plan.login, [target])).toBe('HTTP/1.1 403 PORT_BLOCKED');
    expect(await statusLine(plan.login, [`http://127.0.0.1:${originPort}/`])).toBe(
      'HTTP/1.1 403 PORT_BLOCKED',
    );
    expect(await statusLine(plan.login, ['http://localhost/'])).toBe('HTTP/1.1 403 HOST_BLOCKED');
    expect(await statusLine(unblockedPlan.login, [target])).toBe('HTTP/1.1 200 OK');
    expect(await statusLine(unblockedPlan.login, ['-p', target])).toBe('HTTP/1.1 200 Connection Established');
    // The unblock is for that host, not the whole list.
    expect(await statusLine(unblockedPlan.login, ['http://www.paypal.com/'])).toBe(
      'HTTP/1.1 403 HOST_BLOCKED',
    );
  });
});
