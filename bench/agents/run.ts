// bench:agents' measurements (bench.ts prints them, report.ts words them): bulk throughput and CPU per
// GiB through an exit agent against the direct exit, a new tunnel's time to its first byte through each,
// and the hub's memory per idle connected agent. Processes: the origin, the gateway with its hub
// (gateway-child.ts), the agents (agents-child.ts); this process is the client.

import { type Child, childFdLimit, startChild } from './children.ts';
import { bulkRead, newTunnel, type Target } from './clients.ts';
import { BULK_AGENT_ADDRESS, ORIGIN_HOST, type Via } from './config.ts';

export interface BenchOptions {
  /** Bytes read per bulk measurement (split over the streams). */
  bulkBytes: number;
  /** Parallel tunnels of each bulk measurement: one row per entry. */
  streams: number[];
  /** Interleaved rounds: each measures the direct exit and the agent once per entry of `streams`. */
  rounds: number;
  /** New tunnels timed through each exit. */
  tunnels: number;
  /** Idle agents connected to a fresh hub, one measurement each. */
  agentCounts: number[];
  /** The hub's limit of TLS handshakes at once, and how many agents connect at once (defaults 1,000 and 64). */
  hubMaxHandshakes?: number;
  agentConcurrency?: number;
  /** How long the connected agents stay idle before the hub's memory is read (ms; default 3,000). */
  idleMs?: number;
  log(line: string): void;
}

export interface BulkRow {
  via: Via;
  streams: number;
  bytes: number;
  seconds: number[];
  /** CPU of the gateway+hub process (process.cpuUsage, user + system), ms per round. */
  gatewayCpuMs: number[];
  /** CPU of the agent's process (process.cpuUsage), ms per round; 0 for the direct exit. */
  agentCpuMs: number[];
}

export interface MemoryRow {
  wanted: number;
  /** Agents connected and welcomed at the hub when memory was read. */
  connected: number;
  failed: number;
  /** Why agents failed, with their counts. */
  reasons: Record<string, number>;
  /** Why fewer were asked for than wanted (descriptor limit), when so. */
  capped: string | null;
  connectSeconds: number;
  before: NodeJS.MemoryUsage;
  after: NodeJS.MemoryUsage;
}

export interface BenchResult {
  bulk: BulkRow[];
  latency: Record<Via, { openMs: number[]; firstByteMs: number[] }>;
  memory: MemoryRow[];
  fdLimit: number;
}

export const GOALS = { throughputRatio: 0.7, kibPerAgent: 20 } as const;

const cpuMs = async (child: Child) => {
  const usage = await child.request<NodeJS.CpuUsage>({ kind: 'cpu' });
  return (usage.user + usage.system) / 1000;
};

/** Agents' source addresses: 127.0.0.20 to 127.0.0.254 (below: the origin, the bulk agent, the exit). */
const IDLE_AGENT_ADDRESSES = Array.from({ length: 235 }, (_, i) => `127.0.0.${20 + i}`);

async function startOrigin(): Promise<{ child: Child; port: number }> {
  const child = await startChild('./origin.ts', [ORIGIN_HOST]);
  return { child, port: child.ready.port as number };
}

async function startGateway(originPort: number, agents: number, maxHandshakes?: number): Promise<Child> {
  return startChild('./gateway-child.ts', [JSON.stringify({ originPort, agents, maxHandshakes })]);
}

async function startAgents(
  gateway: Child,
  settings: {
    first: number;
    count: number;
    addresses: string[];
    allowPrivate?: string[];
    concurrency?: number;
  },
  timeoutMs: number,
): Promise<Child> {
  const agents = await startChild('./agents-child.ts', [
    JSON.stringify({
      hub: `https://127.0.0.1:${gateway.ready.hubPort}`,
      pin: gateway.ready.pin,
      concurrency: settings.concurrency ?? 64,
      ...settings,
    }),
  ]);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`agents not connected within ${timeoutMs} ms`)),
      timeoutMs,
    );
    agents.onNote((note) => {
      if (note.done) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return agents;
}

async function waitForHub(gateway: Child, count: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { connected, inIndex } = await gateway.request<{ connected: number; inIndex: number }>({
      kind: 'agents',
    });
    if ((connected >= count && inIndex >= count) || Date.now() > deadline) {
      return Math.min(connected, inIndex);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function measureTraffic(
  options: BenchOptions,
  target: Target,
  gateway: Child,
  agent: Child,
): Promise<Pick<BenchResult, 'bulk' | 'latency'>> {
  const { log } = options;
  // Warm-up: both paths carry a little first (code compiled, the agent's session windows grown).
  for (const via of ['direct', 'agent'] as const) {
    await bulkRead(target, via, 1, 16 * 1024 * 1024);
    await newTunnel(target, via);
  }
  const bulk: BulkRow[] = [];
  const row = (via: Via, streams: number) => {
    let entry = bulk.find((item) => item.via === via && item.streams === streams);
    if (!entry) {
      entry = { via, streams, bytes: 0, seconds: [], gatewayCpuMs: [], agentCpuMs: [] };
      bulk.push(entry);
    }
    return entry;
  };
  for (let round = 0; round < options.rounds; round++) {
    const order: Via[] = round % 2 === 0 ? ['direct', 'agent'] : ['agent', 'direct'];
    for (const streams of options.streams) {
      for (const via of order) {
        const [gatewayBefore, agentBefore] = [await cpuMs(gateway), await cpuMs(agent)];
        const seconds = await bulkRead(target, via, streams, options.bulkBytes);
        const [gatewayAfter, agentAfter] = [await cpuMs(gateway), await cpuMs(agent)];
        const entry = row(via, streams);
        entry.bytes = Math.floor(options.bulkBytes / streams) * streams;
        entry.seconds.push(seconds);
        entry.gatewayCpuMs.push(gatewayAfter - gatewayBefore);
        entry.agentCpuMs.push(via === 'agent' ? agentAfter - agentBefore : 0);
        log(
          `round ${round + 1}/${options.rounds} ${via} x${streams}: ` +
            `${(entry.bytes / seconds / 1e6).toFixed(0)} MB/s`,
        );
      }
    }
  }
  const latency = {
    direct: { openMs: [], firstByteMs: [] },
    agent: { openMs: [], firstByteMs: [] },
  } as BenchResult['latency'];
  for (let i = 0; i < options.tunnels * 2; i++) {
    const via: Via = i % 2 === 0 ? 'direct' : 'agent';
    const { openMs, firstByteMs } = await newTunnel(target, via);
    latency[via].openMs.push(openMs);
    latency[via].firstByteMs.push(firstByteMs);
  }
  log(`${options.tunnels} new tunnels through each exit timed`);
  return { bulk, latency };
}

async function measureMemory(wanted: number, fdLimit: number, options: BenchOptions): Promise<MemoryRow> {
  const { log } = options;
  // The hub holds a descriptor per agent, the agents' process one per agent: both need the limit.
  const room = fdLimit - 256;
  const count = Math.min(wanted, room);
  const capped =
    count < wanted
      ? `the descriptor limit a child may have here is ${fdLimit} (ulimit -Hn), and each agent holds one in the hub's process and one in the agents'`
      : null;
  const gateway = await startGateway(1, count, options.hubMaxHandshakes);
  const agentsTimeoutMs = 120_000 + count * 20;
  let agents: Child | undefined;
  try {
    const before = await gateway.request<NodeJS.MemoryUsage>({ kind: 'memory' });
    const started = performance.now();
    log(`connecting ${count.toLocaleString('en-US')} idle agents...`);
    agents = await startAgents(
      gateway,
      { first: 0, count, addresses: IDLE_AGENT_ADDRESSES, concurrency: options.agentConcurrency },
      agentsTimeoutMs,
    );
    const status = await agents.request<{ online: number; failed: number; reasons: Record<string, number> }>({
      kind: 'status',
    });
    await waitForHub(gateway, status.online, 30_000);
    const connectSeconds = (performance.now() - started) / 1000;
    // Idle: whatever the connections' handshakes left behind is collected or reused before the reading.
    await new Promise((resolve) => setTimeout(resolve, options.idleMs ?? 3_000));
    const after = await gateway.request<NodeJS.MemoryUsage>({ kind: 'memory' });
    const { connected } = await gateway.request<{ connected: number }>({ kind: 'agents' });
    log(`${connected.toLocaleString('en-US')} agents connected in ${connectSeconds.toFixed(1)} s`);
    return {
      wanted,
      connected,
      failed: status.failed,
      reasons: status.reasons,
      capped,
      connectSeconds,
      before,
      after,
    };
  } finally {
    await agents?.stop();
    await gateway.stop();
  }
}

export async function runAgentsBench(options: BenchOptions): Promise<BenchResult> {
  const fdLimit = childFdLimit();
  const origin = await startOrigin();
  let gateway: Child | undefined;
  let agent: Child | undefined;
  let traffic: Pick<BenchResult, 'bulk' | 'latency'>;
  try {
    gateway = await startGateway(origin.port, 1);
    agent = await startAgents(
      gateway,
      { first: 0, count: 1, addresses: [BULK_AGENT_ADDRESS], allowPrivate: [`${ORIGIN_HOST}/32`] },
      30_000,
    );
    if ((await waitForHub(gateway, 1, 10_000)) !== 1) {
      throw new Error('the bulk agent did not come online at the hub');
    }
    const target = { httpPort: gateway.ready.httpPort as number, originPort: origin.port };
    traffic = await measureTraffic(options, target, gateway, agent);
  } finally {
    await agent?.stop();
    await gateway?.stop();
    await origin.child.stop();
  }
  const memory: MemoryRow[] = [];
  for (const wanted of options.agentCounts) {
    memory.push(await measureMemory(wanted, fdLimit, options));
  }
  return { ...traffic, memory, fdLimit };
}
