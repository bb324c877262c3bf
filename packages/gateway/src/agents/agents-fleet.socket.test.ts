import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, type Gateway, type ListeningPorts } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { type AgentProcess, startAgentProcess } from '../testing/agent-process.ts';
import { MemorySessionDirectory } from '../testing/memory-session-directory.ts';
import { curl } from '../testing/sockets.ts';
import { type AgentAdmission, InMemoryAgentDirectory } from './directory.ts';
import { AgentHub } from './hub.ts';
import { makeSelfSigned } from './hub-certificate.ts';

// Two gateways of one fleet, each with its own agent hub and its own self-signed certificate. An agent
// is given one hub; the welcome names both, and it connects to the other itself (pinned as the welcome
// says), so either gateway carries a customer's tunnel through it, with no relay between gateways.
// The gateways share a session directory (in memory here), so a sessid keeps one agent across both.

const ORIGIN_HOST = '127.0.0.10';
const customer: PlanAccess = {
  planId: 'plan-fleet',
  login: 'bgagentfleet',
  password: 'Fleet1234',
  poolType: 'residential',
  threadLimit: 50,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const place = (agentId: string, city: string): AgentAdmission => ({
  agentId,
  poolType: 'residential',
  location: { country: 'US', city },
  settings: {},
});

let origin: Server;
let originPort: number;
const directory = new InMemoryAgentDirectory()
  .add('tok-a', place('agent-a', 'Austin'))
  .add('tok-b', place('agent-b', 'Boston'));
const sessions = new MemorySessionDirectory();
const members: Array<{
  store: InMemoryGatewayStore;
  hub: AgentHub;
  gateway: Gateway;
  ports: ListeningPorts;
  url: string;
}> = [];
const agents: AgentProcess[] = [];

function fetchVia(member: number, user: string) {
  const { ports } = members[member] as (typeof members)[number];
  return curl([
    '-x',
    `http://${user}:${customer.password}@127.0.0.1:${ports.httpPort}`,
    '-p',
    `http://${ORIGIN_HOST}:${originPort}/`,
  ]);
}

beforeAll(async () => {
  origin = createServer((request, response) => response.end(`from ${request.socket.remoteAddress}`));
  await new Promise<void>((resolve) => origin.listen(0, ORIGIN_HOST, resolve));
  originPort = (origin.address() as AddressInfo).port;
  const hubs: Array<{ url: string; fingerprint: string }> = [];
  for (let i = 0; i < 2; i++) {
    const store = new InMemoryGatewayStore().addPlan(customer);
    const certificate = await makeSelfSigned(['127.0.0.1']);
    const hub = new AgentHub({
      host: '127.0.0.1',
      port: 0,
      cert: certificate.cert,
      key: certificate.key,
      directory,
      exitIndex: (poolType) => store.exitIndex(poolType),
      fleetHubs: () => hubs,
    });
    const url = `https://127.0.0.1:${await hub.listen()}`;
    hubs.push({ url, fingerprint: certificate.fingerprint });
    const gateway = createGateway(store, {
      host: '127.0.0.1',
      httpPort: 0,
      allowPrivateTargets: true,
      openPorts: new Set([originPort]),
      shared: { sessions },
    });
    members.push({ store, hub, gateway, ports: await gateway.listen(), url });
  }
  // Each agent is told of the first hub only.
  for (const [token, address] of [
    ['tok-a', '127.0.0.31'],
    ['tok-b', '127.0.0.32'],
  ] as const) {
    const agent = startAgentProcess([
      '--hub',
      hubs[0]?.url ?? '',
      '--token',
      token,
      '--insecure-pin',
      hubs[0]?.fingerprint ?? '',
      '--bind',
      address,
      '--allow-private',
      `${ORIGIN_HOST}/32`,
    ]);
    agents.push(agent);
  }
  await vi.waitFor(
    () => {
      for (const member of members) {
        expect(member.hub.connected()).toHaveLength(2);
      }
    },
    { timeout: 30_000, interval: 100 },
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.kill()));
  for (const member of members) {
    await member.gateway.close();
    await member.hub.close();
  }
  await new Promise((resolve) => origin?.close(resolve));
});

describe('exit agents in a fleet', () => {
  it("connect to every hub the welcome names, pinned to each one's own certificate", () => {
    for (const agent of agents) {
      const online = agent.lines.filter((line) => line.includes('online as agent'));
      expect(online.map((line) => /on (https:\/\/[^:]+:\d+)/.exec(line)?.[1]).sort()).toEqual(
        members.map((member) => member.url).sort(),
      );
    }
  });

  it('carry tunnels through either gateway, whichever hub they were given', async () => {
    for (const member of [0, 1]) {
      expect((await fetchVia(member, `${customer.login}__cr.us;city.austin`)).body).toBe('from 127.0.0.31');
      expect((await fetchVia(member, `${customer.login}__cr.us;city.boston`)).body).toBe('from 127.0.0.32');
    }
  });

  it('keep a sessid on one agent across the gateways', async () => {
    const user = `${customer.login}__cr.us;sessid.fleetagent`;
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      seen.add((await fetchVia(i % 2, user)).body);
    }
    expect(seen.size).toBe(1);
    expect(['from 127.0.0.31', 'from 127.0.0.32']).toContain([...seen][0]);
  });
});
