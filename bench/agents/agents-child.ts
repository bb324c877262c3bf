// Exit agents in one process: `count` ExitAgent instances (packages/agent, what `bytegate-agent` runs),
// tokens `bench-agent-<first>` and up, each connecting from an address of `addresses` in turn (127.0.0.x
// spread over the range, so no one source address runs out of ports). They connect `concurrency` at a
// time (the hub takes at most 1,000 TLS handshakes at once). Sends {ready} when started, a note
// {online, failed} as they come online, then answers `status` and `cpu` (process.cpuUsage).
// Argument: a JSON object {hub, pin, first, count, addresses, allowPrivate, concurrency}.
import { ExitAgent } from 'bytegate-agent';
import { serveRequests } from './children.ts';

interface Options {
  hub: string;
  pin: string;
  first: number;
  count: number;
  addresses: string[];
  allowPrivate?: string[];
  concurrency?: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options;
const agents: ExitAgent[] = [];
let online = 0;
let failed = 0;
/** Why agents went offline or were refused, with how many each. */
const reasons = new Map<string, number>();
let startedAt = 0;
let doneAt = 0;

function startOne(index: number): Promise<void> {
  const agent = new ExitAgent({
    hub: options.hub,
    token: `bench-agent-${index}`,
    pin: options.pin,
    localAddress: options.addresses[index % options.addresses.length],
    allowPrivate: options.allowPrivate ?? [],
    // A failed agent is counted, not retried soon: the bench reports what connected.
    backoff: { firstMs: 600_000, maxMs: 600_000 },
  });
  agents.push(agent);
  return new Promise((resolve) => {
    let wasWelcomed = false;
    agent.once('online', () => {
      wasWelcomed = true;
      online += 1;
      resolve();
    });
    const fail = (reason: string) => {
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      if (!wasWelcomed) {
        failed += 1;
        agent.stop();
        resolve();
      } else {
        online -= 1;
      }
    };
    agent.on('offline', (reason) => fail(reason));
    agent.once('refused', (refusal) => fail(`refused: ${refusal.reason}`));
    agent.start();
  });
}

async function startAll(): Promise<void> {
  startedAt = performance.now();
  let next = options.first;
  const end = options.first + options.count;
  const worker = async () => {
    while (next < end) {
      await startOne(next++);
      if ((online + failed) % 500 === 0) {
        process.send?.({ online, failed });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 64, options.count) }, worker));
  doneAt = performance.now();
  process.send?.({ online, failed, done: true });
}

serveRequests(async (message) => {
  switch (message.kind) {
    case 'status':
      return {
        online,
        failed,
        reasons: Object.fromEntries(reasons),
        connectMs: doneAt > 0 ? doneAt - startedAt : null,
      };
    case 'cpu':
      return process.cpuUsage();
    default:
      throw new Error(`unknown request ${String(message.kind)}`);
  }
});
process.send?.({ ready: true });
void startAll();
