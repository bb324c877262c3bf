import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, type Gateway } from '../gateway.ts';
import { type ExitsSource, InMemoryGatewayStore, type PlanAccess, type Source } from '../index.ts';
import type { SessionDirectory } from '../shared-state.ts';
import { type FakeExit, type FakeNetwork, fakeNetworkSource, startFakeNetwork } from './fake-networks.ts';
import { curl } from './sockets.ts';

/**
 * A fleet of two gateways in one process for tests of sessions through wholesale networks: each with a
 * store of its own (as two processes have), the same plan and sources, and the session directory it is
 * given (one shared in memory, or Redis through the server's FleetSessions); two fake Oxylabs networks
 * (`cheap`, tried first: the routing prefers cost) and a local origin that answers the address it was
 * reached from, so a test sees which fake exit IP carried each request.
 */
export interface NetworkFleet {
  gateways: [Gateway, Gateway];
  stores: [InMemoryGatewayStore, InMemoryGatewayStore];
  cheap: FakeNetwork;
  dear: FakeNetwork;
  plan: PlanAccess;
  /** A request to the origin through gateway `index` (0 or 1), HTTP or SOCKS5: its status and body. */
  get(
    index: 0 | 1,
    username: string,
    options?: { socks?: boolean },
  ): Promise<{ status: number; body: string }>;
  /** Sets a source on both gateways' stores (as both read one database). */
  setSource(source: Source): void;
  close(): Promise<void>;
}

const US_EXITS: FakeExit[] = [
  { address: '127.0.0.61', country: 'US', city: 'dallas' },
  { address: '127.0.0.62', country: 'US', city: 'dallas' },
  { address: '127.0.0.63', country: 'US', city: 'austin' },
  { address: '127.0.0.64', country: 'US', city: 'austin' },
];

export async function startNetworkFleet(
  directories: [SessionDirectory, SessionDirectory],
): Promise<NetworkFleet> {
  const origin: Server = createServer((request, response) => response.end(`${request.socket.remoteAddress}`));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const originPort = (origin.address() as AddressInfo).port;
  const [cheap, dear] = await Promise.all([
    startFakeNetwork({ grammar: 'oxylabs', exits: US_EXITS }),
    startFakeNetwork({ grammar: 'oxylabs', exits: US_EXITS }),
  ]);
  const plan: PlanAccess = {
    planId: `plan-fleet-${Math.random().toString(36).slice(2, 8)}`,
    login: 'bgfleet00001',
    password: 'Secret123',
    poolType: 'residential',
    threadLimit: 50,
    trafficLeftBytes: 10 * 1024 ** 3,
    isActive: true,
  };
  const ownExits: ExitsSource = {
    id: 'own-residential',
    name: 'Own residential exits',
    poolType: 'residential',
    kind: 'exits',
    weight: 100,
    costPerGbCents: 0,
    state: 'off',
  };
  const sources = [
    ownExits,
    fakeNetworkSource('cheap', cheap, { costPerGbCents: 80 }),
    fakeNetworkSource('dear', dear, { costPerGbCents: 300 }),
  ];
  const stores = [new InMemoryGatewayStore(), new InMemoryGatewayStore()] as const;
  const gateways: Gateway[] = [];
  const ports: number[] = [];
  const socksPorts: number[] = [];
  for (const [index, store] of stores.entries()) {
    store.addPlan(plan);
    for (const source of sources) {
      store.setSource(source);
    }
    const gateway = createGateway(store, {
      host: '127.0.0.1',
      httpPort: 0,
      socksPort: 0,
      allowPrivateTargets: true,
      openPorts: new Set([originPort]),
      supplyPreference: 'cost',
      shared: { sessions: directories[index] as SessionDirectory },
    });
    const listening = await gateway.listen();
    gateways.push(gateway);
    ports.push(listening.httpPort);
    socksPorts.push(listening.socksPort as number);
  }
  return {
    gateways: gateways as [Gateway, Gateway],
    stores: [...stores] as [InMemoryGatewayStore, InMemoryGatewayStore],
    cheap,
    dear,
    plan,
    async get(index, username, { socks = false } = {}) {
      const proxy = socks
        ? ['--socks5-hostname', `${username}:${plan.password}@127.0.0.1:${socksPorts[index]}`]
        : ['-x', `http://${username}:${plan.password}@127.0.0.1:${ports[index]}`];
      const { status, body } = await curl([...proxy, `http://127.0.0.1:${originPort}/`]);
      return { status: status ?? 0, body };
    },
    setSource(source) {
      for (const store of stores) {
        store.setSource(source);
      }
    },
    async close() {
      await Promise.all(gateways.map((gateway) => gateway.close()));
      await Promise.all([cheap.close(), dear.close()]);
      await new Promise((resolve) => origin.close(resolve));
    },
  };
}
