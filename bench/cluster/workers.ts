// bench/cluster/workers.ts: new tunnels a second of `bytegate start` with GATEWAY_WORKERS=1 against 2
// (node:cluster sharing the gateway's ports, coordinated through Redis), in one run of about a minute.
// `npm run bench:workers`; the table goes to stdout, progress to stderr. PostgreSQL from
// TEST_DATABASE_URL or DATABASE_URL (a fresh database beside it, dropped at the end), Redis from
// REDIS_URL (keys under a prefix of this run, deleted at the end).
//
// The load is newconn.c (bench/gateway): 50 loops of a new connection, CONNECT, one GET of 1 KiB from
// its C origin, close. Every subject runs the real server (auth, thread slots and traffic in Redis,
// metering flushed to the database); rounds are interleaved. The workers accept from the shared socket
// themselves (the server's choice); "the primary handing out connections" is node:cluster's default
// elsewhere (NODE_CLUSTER_SCHED_POLICY=rr): the primary accepts each connection and passes it over.
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createExits } from '@bytegate/db/queries';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { buyDatacenterPlan, LOOPBACK_EXITS } from '../../apps/server/src/testing/gateway-fixture.ts';
import { startTestServer } from '../../apps/server/src/testing/test-server.ts';
import { median } from '../gateway/clients.ts';
import { buildNewconn, newconnLoad, startNewconnOrigin } from '../gateway/newconn.ts';
import { freePort, groupCpuMs, spawnListening, stop, stopAll, stopGracefully } from '../gateway/processes.ts';
import { deletePrefix } from './readings.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cacheDir = fileURLToPath(new URL('../gateway/.cache', import.meta.url));
const log = (text: string) => process.stderr.write(`${text}\n`);
const ROUNDS = 3;
const SECONDS = 3;
const CONNECTIONS = 50;

const databaseUrl =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
process.env.TEST_DATABASE_URL = databaseUrl;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const prefix = `bytegate-bench-workers-${randomBytes(4).toString('hex')}:`;

interface Subject {
  name: string;
  workers: number;
  env: Record<string, string>;
  port: number;
  child?: Awaited<ReturnType<typeof spawnListening>>;
  rates: number[];
  cpuUs: number[];
  errors: string[];
}

const tool = buildNewconn(cacheDir);
if ('missing' in tool) {
  throw new Error(tool.missing);
}
const startLoad = loadavg();
const server = await startTestServer('postgres');
const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
const origin = await startNewconnOrigin(tool.path);
const subjects: Subject[] = [];

try {
  // Exits without a local address, as bench/gateway's: BENCH_WORKERS_BOUND=1 binds them to 127.0.0.2 and
  // 127.0.0.3 as real exits are bound (see the README: bind() then searches the kernel's ports).
  const isBound = process.env.BENCH_WORKERS_BOUND === '1';
  await createExits(server.database.db, {
    exits: isBound ? LOOPBACK_EXITS : LOOPBACK_EXITS.map(({ localAddress: _, ...exit }) => exit),
  });
  const plan = await buyDatacenterPlan(server);
  await server.database.db.execute(
    sql`update plans set thread_limit = 100000, traffic_total_bytes = ${2 ** 40}, updated_at = now() where id = ${plan.planId}`,
  );
  const credentials = `${plan.login}:${plan.password}`;
  const variants: Array<[string, number, Record<string, string>]> = [
    ['1 worker', 1, {}],
    ['2 workers', 2, {}],
    ['2 workers, the primary handing out connections', 2, { NODE_CLUSTER_SCHED_POLICY: 'rr' }],
  ];
  // BENCH_WORKERS_PROFILE=<dir>: only the 1-worker server, under node --cpu-prof (profiles in <dir>).
  const profileDir = process.env.BENCH_WORKERS_PROFILE;
  if (profileDir) {
    variants.splice(1);
  }
  let sticky = 30_000;
  for (const [name, workers, env] of variants) {
    const port = await freePort();
    const socksPort = await freePort();
    sticky += 200;
    const subject: Subject = { name, workers, env, port, rates: [], cpuUs: [], errors: [] };
    log(`starting ${name}...`);
    subject.child = await spawnListening(
      process.execPath,
      [
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
        'apps/server/bin/bytegate.mjs',
        'start',
      ],
      port,
      {
        cwd: root,
        env: {
          ...process.env,
          ...env,
          DATABASE_URL: server.database.databaseUrl ?? '',
          REDIS_URL: redisUrl,
          REDIS_PREFIX: prefix,
          ROLES: 'gateway',
          GATEWAY_WORKERS: String(workers),
          GATEWAY_HOST: '127.0.0.1',
          HOST: '127.0.0.1',
          GATEWAY_HTTP_PORT: String(port),
          GATEWAY_SOCKS_PORT: String(socksPort),
          GATEWAY_STICKY_PORTS: `${sticky}-${sticky + 9}`,
          GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
          GATEWAY_OPEN_PORTS: String(origin.port),
          LOG_LEVEL: 'warn',
        },
        withinMs: 120_000,
      },
    );
    subjects.push(subject);
  }
  // Each gateway reads the plan from the database once it listens: the first tunnel tells when.
  for (const subject of subjects) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await newconnLoad(
          tool.path,
          { kind: 'connect', port: subject.port, credentials },
          origin.port,
          1,
          0.2,
        );
        break;
      } catch (error) {
        if (Date.now() > deadline) {
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < subjects.length; i++) {
      const subject = subjects[(i + round) % subjects.length] as Subject;
      log(`round ${round + 1}: ${subject.name}`);
      const cpuBefore = groupCpuMs(subject.child?.pid);
      try {
        const result = await newconnLoad(
          tool.path,
          { kind: 'connect', port: subject.port, credentials },
          origin.port,
          CONNECTIONS,
          SECONDS,
        );
        subject.rates.push(result.requests / result.seconds);
        subject.cpuUs.push(((groupCpuMs(subject.child?.pid) - cpuBefore) * 1000) / result.requests);
      } catch (error) {
        subject.errors.push(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
      }
    }
  }
  const base = median(subjects[0]?.rates ?? []);
  const lines = [
    '',
    '# bench/cluster/workers',
    '',
    `${availableParallelism()} cores; load average ${startLoad.map((n) => n.toFixed(2)).join(' / ')} at start, ` +
      `${loadavg()
        .map((n) => n.toFixed(2))
        .join(
          ' / ',
        )} at the end. \`bytegate start\` with ROLES=gateway on PostgreSQL and Redis, exits ${isBound ? 'bound to 127.0.0.2 and 127.0.0.3' : 'without a local address'}; ` +
      `${CONNECTIONS} loops of new connection + CONNECT + GET (newconn.c), ${SECONDS} s x ${ROUNDS} interleaved rounds, medians. ` +
      'CPU is every process of the server (primary and workers) per tunnel. The load generator and the origin share the same cores.',
    '',
    '| | new tunnels/s | vs 1 worker | CPU µs per tunnel (all processes) | failed rounds |',
    '|---|---|---|---|---|',
    ...subjects.map((subject) => {
      const rate = median(subject.rates);
      return `| ${subject.name} | ${Number.isFinite(rate) ? rate.toFixed(0) : '—'} | ${Number.isFinite(rate) && base ? `${(rate / base).toFixed(2)}x` : ''} | ${subject.cpuUs.length > 0 ? median(subject.cpuUs).toFixed(0) : ''} | ${subject.errors.length > 0 ? `${subject.errors.length}: ${subject.errors[0]}` : ''} |`;
    }),
    '',
  ];
  process.stdout.write(lines.join('\n'));
} finally {
  await Promise.all(subjects.map((subject) => (subject.child ? stopGracefully(subject.child) : undefined)));
  stop(origin.child);
  stopAll();
  try {
    await redis.connect();
    log(`deleted ${await deletePrefix(redis, prefix)} Redis keys under ${prefix}`);
    await redis.quit();
  } catch {
    redis.disconnect();
  }
  await server.close();
}
