// bench/gateway: the Bytegate gateway against a direct connection, against the same relay without auth,
// limits and metering, and against the peers that can be installed here (squid, dante, proxy-chain), in
// one run of a few minutes. `npm run bench:gateway`; the table goes to stdout, progress to stderr.
//
// Every proxy runs in its own process (RSS and CPU are its own). Measurements are interleaved: each
// round measures every proxy once, in a rotating order, and a figure is the median over rounds, so a
// machine that is busy with something else for a while does not count against one proxy only. The
// report is in report.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bulkThroughput, forwardBulk, openIdleTunnels, type Route, wrk } from './clients.ts';
import { BENCH_LOGIN, BENCH_PASSWORD } from './config.ts';
import { buildNewconn, newconnLoad, startNewconnOrigin } from './newconn.ts';
import {
  childFdLimit,
  commandVersion,
  ensureDebianPackage,
  firstLine,
  groupCpuMs,
  ownFdLimit,
  rssKb,
  spawnReady,
  stop,
  stopAll,
} from './processes.ts';
import { appliesTo, type Measured, type Run, report, type Subject, type Workload } from './report.ts';
import { startSubjects } from './subjects.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cacheDir = fileURLToPath(new URL('./.cache', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bytegate-bench-'));

// Bounds of the whole run (a few minutes on 2 cores).
const BULK_BYTES = 256 * 1024 * 1024;
const BULK_ROUNDS = 5;
const RPS_ROUNDS = 3;
const RPS_SECONDS = 4;
const RPS_CONNECTIONS = 50;
const LATENCY_ROUNDS = 2;
const LATENCY_SECONDS = 3;
const WANTED_IDLE_TUNNELS = 10_000;
const NEW_CONNECTIONS = 50;
const NEW_SECONDS = 3;
const NEW_ROUNDS = 3;
// An earlier checkout beside this one (BENCH_GATEWAY_BEFORE) is one more subject in every workload.
const WATCHDOG_MS = (process.env.BENCH_GATEWAY_BEFORE ? 12 : 8) * 60_000;

// Each idle tunnel holds two descriptors in the proxy (client side and target side).
const FD_LIMIT = Math.min(childFdLimit(), ownFdLimit());
const IDLE_TUNNELS = Math.min(WANTED_IDLE_TUNNELS, Math.floor((FD_LIMIT - 400) / 2));

const subjects: Subject[] = [];
const measured = new Map<string, Map<Workload, Measured>>();
const idleKb = new Map<string, number | string>();
const notes: string[] = [];
const versions: string[] = [];
const startLoad = loadavg();
const run: Run = {
  subjects,
  measured,
  idleKb,
  notes,
  versions,
  startLoad,
  shape: {
    BULK_BYTES,
    BULK_ROUNDS,
    RPS_CONNECTIONS,
    RPS_SECONDS,
    RPS_ROUNDS,
    LATENCY_SECONDS,
    LATENCY_ROUNDS,
    IDLE_TUNNELS,
    NEW_CONNECTIONS,
    NEW_SECONDS,
    NEW_ROUNDS,
  },
};

const log = (text: string) => process.stderr.write(`${text}\n`);

function slot(name: string, workload: Workload): Measured {
  let byWorkload = measured.get(name);
  if (!byWorkload) {
    byWorkload = new Map();
    measured.set(name, byWorkload);
  }
  let entry = byWorkload.get(workload);
  if (!entry) {
    entry = { values: [], cpu: [], wrk: [], errors: [], p50Us: [] };
    byWorkload.set(workload, entry);
  }
  return entry;
}

function route(subject: Subject, workload: Workload): Route {
  if (subject.kind === 'baseline') {
    return { kind: 'direct' };
  }
  if (workload.startsWith('socks')) {
    return {
      kind: 'socks5',
      port: subject.socksPort ?? 0,
      ...(subject.auth ? { user: BENCH_LOGIN, password: BENCH_PASSWORD } : {}),
    };
  }
  return {
    kind: 'connect',
    port: subject.httpPort ?? 0,
    ...(subject.auth ? { auth: `${BENCH_LOGIN}:${BENCH_PASSWORD}` } : {}),
  };
}

let origin: { bulk: number; http: number; idle: number };
/** The C origin and load of the new-connection workloads (null: they are not measured). */
let newconn: { tool: string; port: number } | null = null;

async function measureNew(subject: Subject, workload: Workload): Promise<void> {
  if (!newconn) {
    return;
  }
  const entry = slot(subject.name, workload);
  const cpuBefore = groupCpuMs(subject.pid);
  const socks = workload === 'newsocks';
  const route =
    subject.kind === 'baseline'
      ? { kind: 'direct' as const }
      : {
          kind: socks ? ('socks' as const) : ('connect' as const),
          port: (socks ? subject.socksPort : subject.httpPort) ?? 0,
          credentials: subject.auth ? `${BENCH_LOGIN}:${BENCH_PASSWORD}` : undefined,
        };
  try {
    const latency = workload === 'newlatency';
    const result = await newconnLoad(
      newconn.tool,
      route,
      newconn.port,
      latency ? 1 : NEW_CONNECTIONS,
      latency ? LATENCY_SECONDS : NEW_SECONDS,
    );
    entry.values.push(latency ? result.p50Us : result.requests / result.seconds);
    entry.p50Us.push(result.p50Us);
    entry.cpu.push(((groupCpuMs(subject.pid) - cpuBefore) * 1000) / Math.max(1, result.requests));
  } catch (error) {
    entry.errors.push(firstLine(error));
  }
}

async function measureOnce(subject: Subject, workload: Workload): Promise<void> {
  const entry = slot(subject.name, workload);
  const cpuBefore = groupCpuMs(subject.pid);
  if (workload === 'newconnect' || workload === 'newsocks' || workload === 'newlatency') {
    await measureNew(subject, workload);
    return;
  }
  try {
    if (workload === 'fwdbulk') {
      const via =
        subject.kind === 'baseline'
          ? { kind: 'direct' as const }
          : {
              kind: 'forward' as const,
              port: subject.httpPort ?? 0,
              ...(subject.auth ? { auth: `${BENCH_LOGIN}:${BENCH_PASSWORD}` } : {}),
            };
      entry.values.push(await forwardBulk(via, origin.http, BULK_BYTES));
      entry.cpu.push((groupCpuMs(subject.pid) - cpuBefore) / (BULK_BYTES / 1e9));
    } else if (workload === 'rps' || workload === 'latency') {
      const result = await wrk({
        dir: work,
        originPort: origin.http,
        ...(subject.httpPort ? { proxyPort: subject.httpPort } : {}),
        ...(subject.auth ? { auth: `${BENCH_LOGIN}:${BENCH_PASSWORD}` } : {}),
        connections: workload === 'rps' ? RPS_CONNECTIONS : 1,
        threads: 1,
        seconds: workload === 'rps' ? RPS_SECONDS : LATENCY_SECONDS,
      });
      entry.wrk.push(result);
      entry.values.push(result.requestsPerSecond);
      entry.cpu.push(((groupCpuMs(subject.pid) - cpuBefore) * 1000) / Math.max(1, result.requests));
    } else {
      const streams = workload.endsWith('4') ? 4 : 1;
      entry.values.push(await bulkThroughput(route(subject, workload), origin.bulk, streams, BULK_BYTES));
      entry.cpu.push((groupCpuMs(subject.pid) - cpuBefore) / (BULK_BYTES / 1e9));
    }
  } catch (error) {
    entry.errors.push(firstLine(error));
  }
}

/** Rounds over every subject a workload applies to, in a rotating order. */
async function measureWorkload(workload: Workload, rounds: number): Promise<void> {
  const runs = subjects.filter((subject) => appliesTo(subject, workload));
  if (runs.length <= 1) {
    return;
  }
  log(`${workload}: ${rounds} rounds over ${runs.map((s) => s.name).join(', ')}`);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < runs.length; i++) {
      const subject = runs[(i + round) % runs.length];
      if (subject) {
        await measureOnce(subject, workload);
      }
    }
  }
}

async function measureIdle(subject: Subject): Promise<void> {
  if (!subject.pid || !subject.httpPort) {
    return;
  }
  log(`idle tunnels: ${IDLE_TUNNELS} through ${subject.name}`);
  try {
    const before = rssKb(subject.pid);
    const tunnels = await openIdleTunnels(route(subject, 'connect1'), origin.idle, IDLE_TUNNELS);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = rssKb(subject.pid);
    for (const socket of tunnels) {
      socket.destroy();
    }
    idleKb.set(subject.name, (after - before) / IDLE_TUNNELS);
    await new Promise((resolve) => setTimeout(resolve, 1500));
  } catch (error) {
    idleKb.set(subject.name, `failed: ${firstLine(error)}`);
  }
}

async function main(): Promise<void> {
  log(`bench/gateway on ${availableParallelism()} cores, load average ${startLoad[0]?.toFixed(2)} at start`);
  if (IDLE_TUNNELS < WANTED_IDLE_TUNNELS) {
    const warning =
      `!!! descriptor limit is ${FD_LIMIT} (ulimit -n cannot be raised further here): ` +
      `${IDLE_TUNNELS} idle tunnels instead of ${WANTED_IDLE_TUNNELS} (a proxy holds 2 descriptors per tunnel) !!!`;
    notes.push(warning);
    log(warning);
  }
  const wrkMissing = ensureDebianPackage('wrk', 'wrk');
  if (wrkMissing) {
    notes.push(`forward requests and latency not measured: ${wrkMissing}`);
  }
  versions.push(`node ${process.version}`, `wrk ${commandVersion('wrk', ['-v'], /wrk (\S+)/)}`);
  const started = await spawnReady<{ bulk: number; http: number; idle: number }>(
    process.execPath,
    ['--import', 'tsx', 'bench/gateway/origin.ts'],
    root,
  );
  origin = started.ready;
  const tool = buildNewconn(cacheDir);
  if ('missing' in tool) {
    notes.push(`new connections not measured: ${tool.missing}`);
  } else {
    const small = await startNewconnOrigin(tool.path);
    newconn = { tool: tool.path, port: small.port };
  }
  const openPorts = [origin.bulk, origin.http, origin.idle, ...(newconn ? [newconn.port] : [])].join(',');
  await startSubjects({ root, cacheDir, work, fdLimit: FD_LIMIT, openPorts, subjects, notes, versions });

  // Idle tunnels first, on fresh processes: RSS growth then includes the heap the tunnels need, rather
  // than fitting into heap a load test grew before.
  for (const subject of subjects) {
    if (subject.kind !== 'what-if' && !subject.unavailable) {
      await measureIdle(subject);
    }
  }
  await measureWorkload('connect1', BULK_ROUNDS);
  await measureWorkload('connect4', BULK_ROUNDS);
  await measureWorkload('socks1', BULK_ROUNDS);
  await measureWorkload('socks4', BULK_ROUNDS);
  await measureWorkload('fwdbulk', BULK_ROUNDS);
  await measureWorkload('rps', RPS_ROUNDS);
  await measureWorkload('latency', LATENCY_ROUNDS);
  await measureWorkload('newconnect', NEW_ROUNDS);
  await measureWorkload('newsocks', NEW_ROUNDS);
  await measureWorkload('newlatency', LATENCY_ROUNDS);
  stop(started.child);
}

const watchdog = setTimeout(() => {
  log(`watchdog: the run took over ${WATCHDOG_MS / 60_000} minutes; stopping`);
  process.stdout.write(report(run, true));
  stopAll();
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

try {
  await main();
  process.stdout.write(report(run, false));
} finally {
  clearTimeout(watchdog);
  stopAll();
  rmSync(work, { recursive: true, force: true });
}
