import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { type AgentProcess, startAgentProcess } from '../testing/agent-process.ts';
import { curl, run } from '../testing/sockets.ts';
import { AgentTunnelRefusal } from './agent-link.ts';
import { type AgentAdmission, InMemoryAgentDirectory } from './directory.ts';
import { AgentHub } from './hub.ts';
import { makeSelfSigned } from './hub-certificate.ts';

// Exit agents as partners run them: real `bytegate-agent` processes, each connecting from its own
// loopback address (127.0.0.11 and up) to the hub over TLS, pinned to its self-signed certificate. The
// origin stands on 127.0.0.10, the one private address the agents are told a lab may reach; every other
// private address (127.0.0.1 stands for the partner's router) they must refuse themselves.

const ORIGIN_HOST = '127.0.0.10';
const customer: PlanAccess = {
  planId: 'plan-res',
  login: 'bgagentsres1',
  password: 'Agents123',
  poolType: 'residential',
  threadLimit: 50,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};

const place = (agentId: string, country: string, city: string): AgentAdmission => ({
  agentId,
  poolType: 'residential',
  location: { country, city, state: null, zip: null, asn: 64_500 },
  settings: {},
});

const agents: Record<string, { token: string; address: string; admission: AgentAdmission }> = {
  nyc: { token: 'tok-nyc', address: '127.0.0.11', admission: place('agent-nyc', 'US', 'New York') },
  chi: { token: 'tok-chi', address: '127.0.0.12', admission: place('agent-chi', 'US', 'Chicago') },
  ber: { token: 'tok-ber', address: '127.0.0.13', admission: place('agent-ber', 'DE', 'Berlin') },
};

let origin: Server;
let originPort: number;
let hub: AgentHub;
let hubPort: number;
let pin: string;
let gateway: Gateway;
let ports: ListeningPorts;
const directory = new InMemoryAgentDirectory();
/** A plan of its own for the test of attribution: nothing else goes through it. */
const counted: PlanAccess = { ...customer, planId: 'plan-counted', login: 'bgagentcount' };
const store = new InMemoryGatewayStore().addPlan(customer).addPlan(counted);
const running: AgentProcess[] = [];
/** Where each /slow download came from. */
const slowFrom: string[] = [];

function runAgent(token: string, address: string, extra: string[] = [], bundle?: string): AgentProcess {
  const agent = startAgentProcess(
    [
      '--hub',
      `https://127.0.0.1:${hubPort}`,
      '--token',
      token,
      '--insecure-pin',
      pin,
      '--bind',
      address,
      '--allow-private',
      `${ORIGIN_HOST}/32`,
      ...extra,
    ],
    bundle,
  );
  running.push(agent);
  return agent;
}

/** An origin's page through the gateway: HTTP forward, or a CONNECT tunnel (`-p`), or SOCKS5. */
function fetchVia(user: string, way: 'forward' | 'connect' | 'socks5', path = '/') {
  const proxy =
    way === 'socks5'
      ? ['--socks5-hostname', `127.0.0.1:${ports.socksPort}`, '--proxy-user', `${user}:${customer.password}`]
      : [
          '-x',
          `http://${user}:${customer.password}@127.0.0.1:${ports.httpPort}`,
          ...(way === 'connect' ? ['-p'] : []),
        ];
  return curl([...proxy, `http://${ORIGIN_HOST}:${originPort}${path}`]);
}

beforeAll(async () => {
  origin = createServer((request, response) => {
    if (request.url === '/slow') {
      // A download that keeps going until its connection is cut.
      slowFrom.push(request.socket.remoteAddress ?? '');
      const timer = setInterval(() => response.write('.'.repeat(1024)), 50);
      response.on('close', () => clearInterval(timer));
      return;
    }
    response.end(`from ${request.socket.remoteAddress}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, ORIGIN_HOST, resolve));
  originPort = (origin.address() as AddressInfo).port;

  for (const { token, admission } of Object.values(agents)) {
    directory.add(token, admission);
  }
  directory.add('tok-revoked', place('agent-revoked', 'FR', 'paris')).revoke('tok-revoked');
  const certificate = await makeSelfSigned(['127.0.0.1']);
  pin = certificate.fingerprint;
  hub = new AgentHub({
    host: '127.0.0.1',
    port: 0,
    cert: certificate.cert,
    key: certificate.key,
    directory,
    exitIndex: (poolType) => store.exitIndex(poolType),
  });
  hubPort = await hub.listen();
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
  });
  ports = await gateway.listen();
  await Promise.all(Object.values(agents).map(({ token, address }) => runAgent(token, address).whenOnline()));
  await vi.waitFor(() => expect(hub.connected()).toHaveLength(3), { timeout: 10_000 });
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((agent) => agent.kill()));
  await gateway?.close();
  await hub?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

describe('exit agents', () => {
  it('are online in the directory from the address they connected from', async () => {
    // The agent prints its welcome as it reads it; the hub records it a moment later.
    await expect.poll(() => directory.online.size, { timeout: 10_000 }).toBe(3);
    expect(Object.fromEntries(directory.online)).toEqual({
      'agent-nyc': '127.0.0.11',
      'agent-chi': '127.0.0.12',
      'agent-ber': '127.0.0.13',
    });
    expect(store.exitIndex('residential').size).toBe(3);
  });

  it.each([
    ['forward', 'cr.de', '127.0.0.13'],
    ['connect', 'cr.de', '127.0.0.13'],
    ['socks5', 'cr.de', '127.0.0.13'],
    ['connect', 'cr.us;city.chicago', '127.0.0.12'],
    ['forward', 'cr.us;city.new_york', '127.0.0.11'],
  ] as const)(
    "carry a %s request with %s, reaching the origin from the agent's address",
    async (way, targeting, from) => {
      const answer = await fetchVia(`${customer.login}__${targeting}`, way);
      expect(answer.body).toBe(`from ${from}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(`from ${from}`);
    },
  );

  it('take only requests whose targeting they match', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const answer = await fetchVia(`${customer.login}__cr.us`, i % 2 === 0 ? 'connect' : 'forward');
      seen.add(answer.body);
    }
    expect([...seen].sort()).toEqual(['from 127.0.0.11', 'from 127.0.0.12']);
    const nowhere = await fetchVia(`${customer.login}__cr.jp`, 'connect');
    expect(nowhere.status).not.toBe(200);
  });

  it('refuse private, loopback, link-local and LAN targets and mail ports, asked directly over their stream', async () => {
    const link = hub.link('agent-nyc');
    expect(link).toBeDefined();
    const asked = async (host: string, port: number) => {
      try {
        const stream = await link?.open(host, port, { timeoutMs: 5_000, carries: 'tunnel' });
        stream?.destroy();
        return 'opened';
      } catch (error) {
        return error instanceof AgentTunnelRefusal ? error.refusal : String(error);
      }
    };
    // The partner's router and LAN, the machine itself, cloud metadata: refused after the agent's own lookup.
    for (const host of [
      '127.0.0.1',
      'localhost',
      '192.168.1.1',
      '10.0.0.138',
      '172.16.0.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      '::ffff:192.168.1.1',
      '100.64.0.1',
    ]) {
      expect(await asked(host, 80), host).toBe('private-address');
    }
    for (const port of [25, 465, 587, 445]) {
      expect(await asked('192.0.2.1', port), `port ${port}`).toBe('blocked-port');
    }
    expect(await asked('name-that-does-not-resolve.invalid', 80)).toBe('dns');
    // The lab's one allowed address still opens: the refusals above are the rule, not a broken agent.
    expect(await asked(ORIGIN_HOST, originPort)).toBe('opened');
  });

  it('have every byte they carry attributed to them, equal to the bytes billed', async () => {
    for (const [targeting, way] of [
      ['cr.de', 'connect'],
      ['cr.us;city.chicago', 'forward'],
      ['cr.de', 'socks5'],
      ['cr.us;city.chicago', 'connect'],
    ] as const) {
      const proxy =
        way === 'socks5'
          ? [
              '--socks5-hostname',
              `127.0.0.1:${ports.socksPort}`,
              '--proxy-user',
              `${counted.login}__${targeting}:${customer.password}`,
            ]
          : [
              '-x',
              `http://${counted.login}__${targeting}:${customer.password}@127.0.0.1:${ports.httpPort}`,
              ...(way === 'connect' ? ['-p'] : []),
            ];
      expect((await curl([...proxy, `http://${ORIGIN_HOST}:${originPort}/`])).status).toBe(200);
    }
    // Every client connection closed and sampled, then flushed as the server would.
    await expect.poll(() => gateway.connections().byPlan.get(counted.planId) ?? 0).toBe(0);
    await gateway.flushUsage();
    const usage = store.flushed.get(counted.planId);
    expect(usage?.bytes).toBeGreaterThan(0);
    expect(Object.keys(usage?.agentBytes ?? {}).sort()).toEqual(['agent-ber', 'agent-chi']);
    const attributed = Object.values(usage?.agentBytes ?? {}).reduce((sum, bytes) => sum + bytes, 0);
    expect(attributed).toBe(usage?.bytes);
  });

  it('run as the single-file bundle a partner downloads, with Node alone', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bytegate-agent-bundle-'));
    try {
      const bundle = join(folder, 'bytegate-agent.mjs');
      await run(process.execPath, [
        fileURLToPath(new URL('../../../agent/scripts/bundle.mjs', import.meta.url)),
        bundle,
      ]);
      directory.add('tok-bundle', place('agent-bundle', 'JP', 'Tokyo'));
      // Started from the empty folder: nothing beside the file, no node_modules to lean on.
      const agent = runAgent('tok-bundle', '127.0.0.16', [], bundle);
      await agent.whenOnline();
      await expect.poll(() => hub.link('agent-bundle')).toBeDefined();
      expect((await fetchVia(`${customer.login}__cr.jp`, 'connect')).body).toBe('from 127.0.0.16');
      await agent.kill();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('are refused, and stop, when their token is revoked', async () => {
    const agent = runAgent('tok-revoked', '127.0.0.14');
    await agent.waitFor(/refused this agent \(revoked\)/);
    expect(await agent.exited).toBe(2);
    expect(directory.online.has('agent-revoked')).toBe(false);
  });

  it("keep the partner's limits: tunnels at once, and no plain HTTP", async () => {
    directory.add('tok-strict', place('agent-strict', 'GB', 'london'));
    const agent = runAgent('tok-strict', '127.0.0.15', ['--max-tunnels', '1', '--no-plain-http']);
    await agent.whenOnline();
    await expect.poll(() => hub.link('agent-strict')).toBeDefined();
    const link = hub.link('agent-strict');
    const first = await link?.open(ORIGIN_HOST, originPort, { timeoutMs: 5_000, carries: 'tunnel' });
    await expect(
      link?.open(ORIGIN_HOST, originPort, { timeoutMs: 5_000, carries: 'tunnel' }),
    ).rejects.toMatchObject({
      refusal: 'busy',
    });
    first?.destroy();
    // Plain HTTP forwarded through the gateway goes elsewhere (there is nowhere else in GB: refused)...
    const forward = await fetchVia(`${customer.login}__cr.gb`, 'forward');
    expect(forward.status).not.toBe(200);
    // ...while a tunnel works, and plain HTTP smuggled inside a tunnel is cut by the agent itself.
    await expect.poll(() => link?.tunnels).toBe(0);
    const tunnel = await fetchVia(`${customer.login}__cr.gb`, 'connect');
    expect(tunnel.body).toBe('');
    await agent.kill();
  });

  it('end their tunnels when they leave, and a sticky session moves to another agent of the same country', async () => {
    const user = `${customer.login}__cr.us;sessid.move1`;
    const first = await fetchVia(user, 'connect');
    const from = first.body;
    expect(['from 127.0.0.11', 'from 127.0.0.12']).toContain(from);
    const name = from.endsWith('.11') ? 'nyc' : 'chi';
    const leaving = running[Object.keys(agents).indexOf(name)] as AgentProcess;
    // A long download through the session's agent, cut when the agent dies.
    const download = curl([
      '-x',
      `http://${user}:${customer.password}@127.0.0.1:${ports.httpPort}`,
      '-p',
      `http://${ORIGIN_HOST}:${originPort}/slow`,
    ]);
    // The download is under way through the session's agent (it keeps other, idle connections too).
    await expect.poll(() => slowFrom).toEqual([agents[name]?.address]);
    const killedAt = Date.now();
    await leaving.kill('SIGKILL');
    const cut = await download;
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    // Cut: curl got the tunnel and part of the body, never its end.
    expect(cut.status).not.toBe(200);
    await expect.poll(() => hub.link(agents[name]?.admission.agentId ?? '')).toBeUndefined();
    const moved = await fetchVia(user, 'connect');
    expect(moved.body).toBe(from.endsWith('.11') ? 'from 127.0.0.12' : 'from 127.0.0.11');
    expect(directory.online.has(agents[name]?.admission.agentId ?? '')).toBe(false);
  });
});
