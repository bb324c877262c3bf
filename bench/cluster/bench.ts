// bench/cluster: what sharing gateway state through Redis (REDIS_URL) costs a gateway, against the same
// gateway keeping it in its own memory, measured in one run (well under two minutes). `npm run
// bench:cluster`; the report goes to stdout, progress to stderr. PostgreSQL from TEST_DATABASE_URL or
// DATABASE_URL (a fresh database beside it, dropped at the end), Redis from REDIS_URL (keys under a
// prefix of this run, deleted at the end).
//
// Every gateway is runGateway in its own process (gateway.ts) over the one database, with exits on
// loopback: "in-process" runs without Redis; "shared x2" is two gateways on Redis, the clients spread
// over both; "shared x1" is one of those alone (a reference: Redis without a second process). Rates and
// downloads are interleaved: each round measures every subject once, in a rotating order.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createExits } from '@bytegate/db/queries';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { buyDatacenterPlan, LOOPBACK_EXITS } from '../../apps/server/src/testing/gateway-fixture.ts';
import { startTestServer } from '../../apps/server/src/testing/test-server.ts';
import { bulkThroughput } from '../gateway/clients.ts';
import { spawnReady, stop, stopAll, stopGracefully } from '../gateway/processes.ts';
import {
  add,
  deletePrefix,
  difference,
  machineBusyMs,
  ownCpuMs,
  type RunningGateway,
  snapshot,
} from './readings.ts';
import { type Measured, report, type Shape, type Subject } from './report.ts';
import { connectLatency, type Entry, tunnelOnce, tunnelRate } from './tunnels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const log = (text: string) => process.stderr.write(`${text}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Bounds of the whole run.
const shape: Shape = {
  clients: 32,
  rateRounds: 3,
  rateSeconds: 2,
  maxTunnelsPerRound: 20_000,
  smallBytes: 1024,
  latencyRounds: 2,
  latencySamples: 400,
  latencySeconds: 3,
  bulkBytes: 200 * 1024 * 1024,
  bulkRounds: 3,
  quietSeconds: 2,
};
const WATCHDOG_MS = 3 * 60_000;

const databaseUrl =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
// createTestDb makes its fresh database beside this one.
process.env.TEST_DATABASE_URL = databaseUrl;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const prefix = `bytegate-bench-cluster-${randomBytes(4).toString('hex')}:`;

const startLoad = loadavg();
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true });
redis.on('error', () => undefined);
const server = await startTestServer('postgres');
const testDatabaseUrl = server.database.databaseUrl ?? '';
const gateways: RunningGateway[] = [];
let origin: Awaited<ReturnType<typeof spawnReady<{ bulk: number }>>> | undefined;

async function startGateway(name: string, isShared: boolean, openPort: number): Promise<RunningGateway> {
  const started = await spawnReady<{ httpPort: number; statsPort: number }>(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/cluster/gateway.ts',
      testDatabaseUrl,
      String(openPort),
      ...(isShared ? [redisUrl, prefix] : []),
    ],
    root,
  );
  // What a gateway logs from here (Redis away, a failed flush) is worth seeing as it happens.
  started.child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      log(`[${name}] ${line}`);
    }
  });
  const gateway = { name, child: started.child, ...started.ready };
  gateways.push(gateway);
  return gateway;
}

async function cleanUp(): Promise<void> {
  await Promise.all(gateways.map((gateway) => stopGracefully(gateway.child)));
  stop(origin?.child);
  if (redis.status === 'ready') {
    const deleted = await deletePrefix(redis, prefix).catch(() => 0);
    log(`deleted ${deleted} Redis keys under ${prefix}`);
    await redis.quit().catch(() => undefined);
  } else {
    redis.disconnect();
  }
  // Closes the app and drops the fresh database.
  await server.close();
}

async function main(): Promise<string> {
  await redis.connect();
  const redisVersion = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? '?';
  const pgVersion = (
    (await server.database.db.execute(sql`show server_version`)) as unknown as {
      rows: Array<{ server_version: string }>;
    }
  ).rows[0]?.server_version;
  log(`bench/cluster: PostgreSQL ${pgVersion} (fresh database), Redis ${redisVersion} (prefix ${prefix})`);

  origin = await spawnReady<{ bulk: number }>(
    process.execPath,
    ['--import', 'tsx', 'bench/gateway/origin.ts'],
    root,
  );
  const bulkPort = origin.ready.bulk;
  await createExits(server.database.db, { exits: LOOPBACK_EXITS });
  const plan = await buyDatacenterPlan(server);
  // Room for the whole run: 1 TiB and far more threads than clients. Before the gateways start, so
  // their first refresh reads it (updated_at moves, as any write to a plan does).
  await server.database.db.execute(
    sql`update plans set thread_limit = 100000, traffic_total_bytes = ${2 ** 40}, updated_at = now() where id = ${plan.planId}`,
  );
  const auth = `Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`;

  log('starting 3 gateway processes...');
  const [local, sharedA, sharedB] = await Promise.all([
    startGateway('in-process', false, bulkPort),
    startGateway('shared-a', true, bulkPort),
    startGateway('shared-b', true, bulkPort),
  ]);
  if (!local || !sharedA || !sharedB) {
    throw new Error('a gateway did not start');
  }
  const entry = (gateway: RunningGateway): Entry => ({ port: gateway.httpPort, auth });
  const subjects: Subject[] = [
    { name: 'in-process', gateways: [local] },
    { name: 'shared x2', gateways: [sharedA, sharedB] },
    { name: 'shared x1', gateways: [sharedA] },
  ];
  const measured = new Map<string, Measured>(
    subjects.map((subject) => [subject.name, { rateRounds: [], latency: [], bulk: [] }]),
  );
  const slot = (subject: Subject) => measured.get(subject.name) as Measured;
  const rotate = <T>(list: T[], round: number) => list.map((_, i) => list[(i + round) % list.length] as T);

  // Warm-up: every gateway answers, and has JIT-compiled its path, before anything is timed.
  for (const gateway of gateways) {
    for (let i = 0; i < 50; i++) {
      await tunnelOnce(entry(gateway), bulkPort, shape.smallBytes);
    }
  }

  // And a second under the full load each, so that no subject's first round pays for warming up.
  for (const subject of subjects) {
    await tunnelRate(subject.gateways.map(entry), bulkPort, shape.smallBytes, {
      clients: shape.clients,
      seconds: 1,
      maxTunnels: shape.maxTunnelsPerRound,
      maxErrors: 100,
    });
  }

  const ours = () => ownCpuMs([...gateways.map((gateway) => gateway.child), origin?.child]);
  const spanStart = { machine: machineBusyMs(), ours: ours(), redis: await snapshot(redis, []) };
  log(`quiet window: ${shape.quietSeconds} s with no load (what Redis does without us)`);
  let before = await snapshot(redis, gateways);
  await sleep(shape.quietSeconds * 1000);
  const quiet = difference(before, await snapshot(redis, gateways));

  log(
    `tunnel rate: ${shape.rateRounds} rounds x ${shape.rateSeconds} s x ${subjects.length} subjects, ${shape.clients} clients`,
  );
  for (let round = 0; round < shape.rateRounds; round++) {
    for (const subject of rotate(subjects, round)) {
      before = await snapshot(redis, subject.gateways);
      const [machineBefore, oursBefore] = [machineBusyMs(), ours()];
      const cpuBefore = process.cpuUsage();
      const result = await tunnelRate(subject.gateways.map(entry), bulkPort, shape.smallBytes, {
        clients: shape.clients,
        seconds: shape.rateSeconds,
        maxTunnels: shape.maxTunnelsPerRound,
        maxErrors: 100,
      });
      const cpu = process.cpuUsage(cpuBefore);
      const [machineAfter, oursAfter] = [machineBusyMs(), ours()];
      const diff = difference(before, await snapshot(redis, subject.gateways));
      const entryOf = slot(subject);
      entryOf.rateRounds.push({
        ...result,
        loadCpuMs: (cpu.user + cpu.system) / 1000,
        // What else kept the cores busy meanwhile: PostgreSQL, and anything else running on the machine.
        otherCpuMs: Math.max(0, machineAfter - machineBefore - (oursAfter - oursBefore) - diff.redisCpuMs),
      });
      entryOf.rateDiff = add(entryOf.rateDiff, diff);
      log(
        `  ${subject.name}: ${(result.tunnels / result.seconds).toFixed(0)} tunnels/s${result.errors ? ` (${result.errors} failed: ${result.firstError})` : ''}`,
      );
      await sleep(300);
    }
  }

  log(`CONNECT latency: ${shape.latencyRounds} rounds x ${shape.latencySamples} tunnels, one client`);
  for (let round = 0; round < shape.latencyRounds; round++) {
    for (const subject of rotate(subjects, round)) {
      before = await snapshot(redis, subject.gateways);
      const times = await connectLatency(subject.gateways.map(entry), bulkPort, shape.smallBytes, {
        samples: shape.latencySamples,
        seconds: shape.latencySeconds,
      });
      const entryOf = slot(subject);
      entryOf.latency.push(...times);
      entryOf.latencyDiff = add(
        entryOf.latencyDiff,
        difference(before, await snapshot(redis, subject.gateways)),
      );
    }
  }

  log(`download: ${shape.bulkRounds} rounds x ${shape.bulkBytes / 1024 / 1024} MiB through one tunnel`);
  for (let round = 0; round < shape.bulkRounds; round++) {
    for (const subject of rotate(subjects, round)) {
      const gateway = subject.gateways[round % subject.gateways.length] as RunningGateway;
      before = await snapshot(redis, [gateway]);
      const entryOf = slot(subject);
      try {
        entryOf.bulk.push(
          await bulkThroughput(
            { kind: 'connect', port: gateway.httpPort, auth: `${plan.login}:${plan.password}` },
            bulkPort,
            1,
            shape.bulkBytes,
          ),
        );
      } catch (error) {
        entryOf.bulkError ??= error instanceof Error ? error.message : String(error);
      }
      entryOf.bulkDiff = add(entryOf.bulkDiff, difference(before, await snapshot(redis, [gateway])));
    }
  }

  const span = difference(spanStart.redis, await snapshot(redis, []));
  const otherCpuMs = machineBusyMs() - spanStart.machine - (ours() - spanStart.ours) - span.redisCpuMs;
  return report({
    otherCpu: { seconds: span.seconds, share: Math.max(0, otherCpuMs) / (span.seconds * 1000) },
    subjects,
    measured,
    quiet,
    shape,
    startLoad,
    versions: `node ${process.version}, PostgreSQL ${pgVersion}, Redis ${redisVersion}`,
    redisUrl,
    prefix,
  });
}

const watchdog = setTimeout(() => {
  log(`watchdog: the run took over ${WATCHDOG_MS / 60_000} minutes; stopping`);
  stopAll();
  void server.close().finally(() => process.exit(1));
  setTimeout(() => process.exit(1), 10_000).unref();
}, WATCHDOG_MS);
watchdog.unref();

try {
  process.stdout.write(await main());
} finally {
  clearTimeout(watchdog);
  await cleanUp();
}
