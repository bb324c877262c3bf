// bench/flood: 3,000 clients opening CONNECT tunnels as fast as they can for 4 s (packages/gateway/src/
// testing/flood.mjs, in its own process), against the gateway and against a bare CONNECT relay (no auth,
// limits or metering) in this same process, interleaved over rounds. Prints p50/p99/max of the time to an
// answer for each, the gateway's ratio to the bare relay, and a PASS/MISS line for the goal: every client
// answered within 2 s (a tunnel, or a quick 503 with Retry-After). `npm run bench:flood`, about a minute.
import { execFile } from 'node:child_process';
import { type AddressInfo, connect, createServer, type Server } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGateway } from '../../packages/gateway/src/gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../../packages/gateway/src/store.ts';

const ROUNDS = 3;
const GOAL_MS = 2000;
const flood = fileURLToPath(new URL('../../packages/gateway/src/testing/flood.mjs', import.meta.url));
const plan: PlanAccess = {
  planId: 'plan-flood',
  login: 'bgflood01',
  password: 'Secret1xyz',
  poolType: 'datacenter',
  threadLimit: 100_000,
  trafficLeftBytes: 1024 ** 4,
  isActive: true,
};
const AUTH = `Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`;

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () =>
      resolve((server.address() as AddressInfo).port),
    ),
  );

const origin = createServer((socket) => {
  socket.on('error', () => socket.destroy());
  socket.resume();
});
const originPort = await listen(origin);

/** The baseline: reads a CONNECT head, connects to the origin, answers 200, relays. Nothing else. */
const bare = createServer((client) => {
  client.on('error', () => client.destroy());
  let head = '';
  const onData = (chunk: Buffer) => {
    head += chunk.toString('latin1');
    if (!head.includes('\r\n\r\n')) {
      return;
    }
    client.off('data', onData);
    const upstream = connect(originPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      client.pipe(upstream).pipe(client);
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  };
  client.on('data', onData);
});
const barePort = await listen(bare);

const store = new InMemoryGatewayStore()
  .addPlan(plan)
  .addExit({ id: 'local', kind: 'direct', poolType: 'datacenter', country: 'US', isRisky: false });
const gateway = createGateway(store, {
  host: '127.0.0.1',
  httpPort: 0,
  allowPrivateTargets: true,
  openPorts: new Set([originPort]),
});
const gatewayPort = (await gateway.listen()).httpPort;

interface Result {
  latencies: number[];
  statuses: Record<string, number>;
  unanswered: number;
}
async function run(port: number): Promise<Result> {
  const settings = {
    port,
    target: `127.0.0.1:${originPort}`,
    auth: AUTH,
    clients: 3000,
    durationMs: 4000,
    giveUpMs: 15_000,
    addresses: 50,
  };
  const { stdout } = await promisify(execFile)(process.execPath, [flood, JSON.stringify(settings)], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Result;
}
const at = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;

const subjects = { gateway: gatewayPort, bare: barePort };
const figures: Record<
  string,
  Array<{ p50: number; p99: number; max: number; unanswered: number; shed: number }>
> = {
  gateway: [],
  bare: [],
};
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? (['gateway', 'bare'] as const) : (['bare', 'gateway'] as const);
  for (const name of order) {
    const result = await run(subjects[name]);
    const sorted = [...result.latencies].sort((a, b) => a - b);
    figures[name]?.push({
      p50: at(sorted, 0.5),
      p99: at(sorted, 0.99),
      max: sorted.at(-1) ?? 0,
      unanswered: result.unanswered,
      shed: result.statuses['503'] ?? 0,
    });
    process.stderr.write(
      `round ${round + 1} ${name}: ${sorted.length} answers ${JSON.stringify(result.statuses)}\n`,
    );
  }
}
await gateway.close();
bare.close();
origin.close();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const summary = (name: string) => {
  const rows = figures[name] ?? [];
  return {
    p50: median(rows.map((row) => row.p50)),
    p99: median(rows.map((row) => row.p99)),
    max: Math.max(...rows.map((row) => row.max)),
    unanswered: rows.reduce((sum, row) => sum + row.unanswered, 0),
    shed: rows.reduce((sum, row) => sum + row.shed, 0),
  };
};
const g = summary('gateway');
const b = summary('bare');
console.log(
  `bench/flood: 3,000 clients x 4 s, ${ROUNDS} rounds each, load average ${loadavg()[0]?.toFixed(2)}`,
);
console.log('| subject | p50 ms | p99 ms | max ms | unanswered | 503 shed |');
console.log('|---|---|---|---|---|---|');
for (const [name, s] of [
  ['gateway', g],
  ['bare relay', b],
] as const) {
  console.log(
    `| ${name} | ${s.p50.toFixed(0)} | ${s.p99.toFixed(0)} | ${s.max.toFixed(0)} | ${s.unanswered} | ${s.shed} |`,
  );
}
console.log(`gateway / bare relay: p50 ${(g.p50 / b.p50).toFixed(2)}x, p99 ${(g.p99 / b.p99).toFixed(2)}x`);
console.log(
  `${g.max < GOAL_MS && g.unanswered === 0 ? 'PASS' : 'MISS'} every client answered within ${GOAL_MS / 1000} s (max ${g.max.toFixed(0)} ms)`,
);
