// The gateway and its agent hub in one process, as `bytegate start` runs them: an in-memory store with
// two plans (one on the datacenter pool, whose one exit is direct and bound to 127.0.0.2; one on the
// residential pool, whose exits are the agents), and an in-memory directory that admits agent tokens
// `bench-agent-0` to `bench-agent-<N-1>`. Sends {httpPort, hubPort, pin} when it listens, then answers
// `cpu` (process.cpuUsage), `memory` (after full collections) and `agents` (connected to the hub).
// Argument: a JSON object {originPort, agents, maxHandshakes?}.
import {
  AgentHub,
  createGateway,
  InMemoryAgentDirectory,
  InMemoryGatewayStore,
  makeSelfSigned,
} from '@bytegate/gateway';
import { serveRequests, settledMemory } from './children.ts';
import { BENCH_PLANS } from './config.ts';

const { originPort, agents, maxHandshakes } = JSON.parse(process.argv[2] ?? '{}') as {
  originPort: number;
  agents: number;
  maxHandshakes?: number;
};

const store = new InMemoryGatewayStore().addPlan(BENCH_PLANS.direct).addPlan(BENCH_PLANS.agent).addExit({
  id: 'direct',
  kind: 'direct',
  poolType: 'datacenter',
  country: 'US',
  isRisky: false,
  localAddress: '127.0.0.2',
});
const directory = new InMemoryAgentDirectory();
for (let i = 0; i < agents; i++) {
  directory.add(`bench-agent-${i}`, {
    agentId: `agent-${i}`,
    poolType: 'residential',
    location: { country: 'US', city: 'New York', state: 'NY', zip: null, asn: 7922 },
    settings: {},
  });
}
const certificate = await makeSelfSigned(['127.0.0.1']);
const hub = new AgentHub({
  host: '127.0.0.1',
  port: 0,
  cert: certificate.cert,
  key: certificate.key,
  directory,
  exitIndex: (poolType) => store.exitIndex(poolType),
  ...(maxHandshakes === undefined ? {} : { maxHandshakes }),
});
const hubPort = await hub.listen();
const gateway = createGateway(store, {
  host: '127.0.0.1',
  httpPort: 0,
  socksPort: 0,
  allowPrivateTargets: true,
  openPorts: new Set([originPort]),
});
const ports = await gateway.listen();

serveRequests(async (message) => {
  switch (message.kind) {
    case 'cpu':
      return process.cpuUsage();
    case 'memory':
      return settledMemory();
    case 'agents':
      return { connected: directory.online.size, inIndex: store.exitIndex('residential').size };
    default:
      throw new Error(`unknown request ${String(message.kind)}`);
  }
});
process.send?.({ httpPort: ports.httpPort, hubPort, pin: certificate.fingerprint });
