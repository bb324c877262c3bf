// bench/gateway: the Bytegate gateway against a direct connection, against the same relay without auth,
// limits and metering, and against the peers that can be installed here (squid, dante, proxy-chain), in
// one run of a few minutes. `npm run bench:gateway`; the table goes to stdout, progress to stderr.
//
// Every proxy runs in its own process (RSS and CPU are its own). Measurements are interleaved: each
// round measures every proxy once, in a rotating order, and a figure is the median over rounds, so a
// machine that is busy with something else for a while does not count against one proxy only.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bulkThroughput, median, openIdleTunnels, type Route, type WrkResult, wrk } from './clients.ts';
import { BENCH_LOGIN, BENCH_PASSWORD } from './config.ts';
import {
  childFdLimit,
  commandVersion,
  ensureDebianPackage,
  ensureProxyChain,
  groupCpuMs,
  ownFdLimit,
  proxyChainVersion,
  rssKb,
  spawnReady,
  startDante,
  startSquid,
  stop,
  stopAll,
} from './processes.ts';

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
const WATCHDOG_MS = 8 * 60_000;

// Each idle tunnel holds two descriptors in the proxy (client side and target side).
const FD_LIMIT = Math.min(childFdLimit(), ownFdLimit());
const IDLE_TUNNELS = Math.min(WANTED_IDLE_TUNNELS, Math.floor((FD_LIMIT - 400) / 2));

type Workload = 'connect1' | 'connect4' | 'socks1' | 'socks4' | 'rps' | 'latency';
const WORKLOADS: Workload[] = ['connect1', 'connect4', 'socks1', 'socks4', 'rps', 'latency'];

interface Subject {
  name: string;
  kind: 'baseline' | 'ours' | 'reference' | 'what-if' | 'peer';
  child?: ChildProcess;
  /** The process whose RSS and CPU are the proxy's. */
  pid?: number;
  httpPort?: number;
  socksPort?: number;
  auth?: boolean;
  /** Workloads this subject runs (a what-if runs only what it changes). */
  only?: Workload[];
  unavailable?: string;
}

interface Measured {
  values: number[];
  /** Proxy CPU per unit: ms per GB for bulk, µs per request for wrk. */
  cpu: number[];
  wrk: WrkResult[];
  errors: string[];
}

const subjects: Subject[] = [];
const measured = new Map<string, Map<Workload, Measured>>();
const idleKb = new Map<string, number | string>();
const notes: string[] = [];
const versions: string[] = [];
const startLoad = loadavg();

const log = (text: string) => process.stderr.write(`${text}\n`);
const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

function slot(name: string, workload: Workload): Measured {
  let byWorkload = measured.get(name);
  if (!byWorkload) {
    byWorkload = new Map();
    measured.set(name, byWorkload);
  }
  let entry = byWorkload.get(workload);
  if (!entry) {
    entry = { values: [], cpu: [], wrk: [], errors: [] };
    byWorkload.set(workload, entry);
  }
  return entry;
}

function applies(subject: Subject, workload: Workload): boolean {
  if (subject.unavailable || (subject.only && !subject.only.includes(workload))) {
    return false;
  }
  if (subject.kind === 'baseline') {
    return true;
  }
  return workload.startsWith('socks') ? subject.socksPort !== undefined : subject.httpPort !== undefined;
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

async function measureOnce(subject: Subject, workload: Workload): Promise<void> {
  const entry = slot(subject.name, workload);
  const cpuBefore = groupCpuMs(subject.pid);
  try {
    if (workload === 'rps' || workload === 'latency') {
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
  const runs = subjects.filter((subject) => applies(subject, workload));
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

const runner = (mode: string, openPorts: string) =>
  spawnReady<{ httpPort: number; socksPort?: number }>(
    process.execPath,
    ['--import', 'tsx', 'bench/gateway/runner.ts', mode, openPorts, join(cacheDir, 'node_modules')],
    root,
  );

async function startSubjects(): Promise<void> {
  const openPorts = [origin.bulk, origin.http, origin.idle].join(',');
  subjects.push({ name: 'direct', kind: 'baseline' });
  const nodeProxies: Array<[string, Subject['kind'], string, Partial<Subject>]> = [
    ['bytegate', 'ours', 'bytegate', { auth: true }],
    ['bare relay', 'reference', 'bare', {}],
  ];
  for (const [name, kind, mode, extra] of nodeProxies) {
    try {
      const started = await runner(mode, openPorts);
      subjects.push({
        name,
        kind,
        child: started.child,
        pid: started.child.pid,
        httpPort: started.ready.httpPort,
        ...(started.ready.socksPort ? { socksPort: started.ready.socksPort } : {}),
        ...extra,
      });
    } catch (error) {
      subjects.push({ name, kind, unavailable: `could not start: ${firstLine(error)}` });
    }
  }
  const bytegate = subjects.find((subject) => subject.name === 'bytegate');
  if (bytegate && !bytegate.unavailable && bytegate.socksPort === undefined) {
    notes.push('TODO gateway SOCKS5: not built yet (createGateway answered no socksPort)');
  }

  const squidMissing = ensureDebianPackage('squid', 'squid');
  if (squidMissing) {
    subjects.push({ name: 'squid', kind: 'peer', unavailable: `not available: ${squidMissing}` });
  } else {
    versions.push(`squid ${commandVersion('squid', ['-v'], /Version (\S+)/)}`);
    try {
      const squid = await startSquid(work, FD_LIMIT);
      subjects.push({
        name: 'squid',
        kind: 'peer',
        child: squid.child,
        pid: squid.child.pid,
        httpPort: squid.port,
      });
    } catch (error) {
      subjects.push({ name: 'squid', kind: 'peer', unavailable: `not available: ${firstLine(error)}` });
    }
  }

  const chainMissing = ensureProxyChain(cacheDir);
  if (chainMissing) {
    subjects.push({ name: 'proxy-chain', kind: 'peer', unavailable: `not available: ${chainMissing}` });
  } else {
    versions.push(`proxy-chain ${proxyChainVersion(cacheDir)}`);
    try {
      const chain = await runner('proxy-chain', openPorts);
      subjects.push({
        name: 'proxy-chain',
        kind: 'peer',
        child: chain.child,
        pid: chain.child.pid,
        httpPort: chain.ready.httpPort,
      });
    } catch (error) {
      subjects.push({ name: 'proxy-chain', kind: 'peer', unavailable: `not available: ${firstLine(error)}` });
    }
  }

  const danteMissing = ensureDebianPackage('danted', 'dante-server');
  if (danteMissing) {
    subjects.push({ name: 'dante', kind: 'peer', unavailable: `not available: ${danteMissing}` });
  } else {
    versions.push(`dante ${commandVersion('danted', ['-v'], /Dante v(\S+?)\.?\s/)}`);
    try {
      const dante = await startDante(work);
      subjects.push({
        name: 'dante',
        kind: 'peer',
        child: dante.child,
        pid: dante.child.pid,
        socksPort: dante.port,
      });
    } catch (error) {
      subjects.push({ name: 'dante', kind: 'peer', unavailable: `not available: ${firstLine(error)}` });
    }
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
  await startSubjects();

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
  await measureWorkload('rps', RPS_ROUNDS);
  await measureWorkload('latency', LATENCY_ROUNDS);
  stop(started.child);
}

// --- the report -------------------------------------------------------------------------------------

function figure(name: string, workload: Workload): number | undefined {
  const entry = measured.get(name)?.get(workload);
  return entry && entry.values.length > 0 ? median(entry.values) : undefined;
}

function wrkFigure(name: string, workload: Workload, pick: (result: WrkResult) => number) {
  const entry = measured.get(name)?.get(workload);
  return entry && entry.wrk.length > 0 ? median(entry.wrk.map(pick)) : undefined;
}

function cpuFigure(name: string, workload: Workload): number | undefined {
  const entry = measured.get(name)?.get(workload);
  const values = entry?.cpu.filter((value) => Number.isFinite(value)) ?? [];
  return values.length > 0 ? median(values) : undefined;
}

const pct = (value: number | undefined, base: number | undefined) =>
  value === undefined || !base ? '' : ` (${((value / base) * 100).toFixed(0)}%)`;

function cell(subject: Subject, workload: Workload, format: (value: number) => string): string {
  if (!applies(subject, workload)) {
    return '';
  }
  const entry = measured.get(subject.name)?.get(workload);
  const value = figure(subject.name, workload);
  if (value === undefined) {
    return entry?.errors.length ? `failed: ${entry.errors[0]}` : '—';
  }
  const base = subject.kind === 'baseline' ? undefined : figure('direct', workload);
  const failures = entry?.errors.length ? ` [${entry.errors.length} failed]` : '';
  const socketErrors = entry?.wrk.reduce((sum, result) => sum + result.socketErrors, 0) ?? 0;
  const wrkErrors = socketErrors > 0 && workload === 'rps' ? ` [${socketErrors} socket errors]` : '';
  return `${format(value)}${pct(value, base)}${failures}${wrkErrors}`;
}

function spread(name: string, workload: Workload): string {
  const values = measured.get(name)?.get(workload)?.values ?? [];
  if (values.length < 2) {
    return '';
  }
  const mid = median(values);
  return `±${(((Math.max(...values) - Math.min(...values)) / 2 / mid) * 100).toFixed(0)}%`;
}

function report(partial: boolean): string {
  const endLoad = loadavg();
  const mbps = (value: number) => `${value.toFixed(0)} MB/s`;
  const lines = [
    '',
    `# bench/gateway${partial ? ' (PARTIAL: stopped by the watchdog)' : ''}`,
    '',
    `${availableParallelism()} cores; load average (1/5/15 min) ${startLoad.map((n) => n.toFixed(2)).join(' / ')} at start, ` +
      `${endLoad.map((n) => n.toFixed(2)).join(' / ')} at the end; ${versions.join(', ')}.`,
    `Bulk: ${BULK_BYTES / 1024 / 1024} MiB from a local TCP origin per measurement (1 stream, or 4 streams of ` +
      `${BULK_BYTES / 4 / 1024 / 1024} MiB), median of ${BULK_ROUNDS} interleaved rounds; % is of direct.`,
    `Forward: load generator wrk (1 thread) with ${RPS_CONNECTIONS} keep-alive connections, 1 KiB responses, ` +
      `${RPS_SECONDS} s x ${RPS_ROUNDS} rounds; latency: wrk with 1 connection, ${LATENCY_SECONDS} s x ${LATENCY_ROUNDS} rounds ` +
      '(added = proxy minus direct). wrk reaches the proxy with absolute-form requests (Lua wrk.path).',
    `Idle: ${IDLE_TUNNELS} CONNECT tunnels to an idle TCP origin, (RSS after - RSS before) / tunnels, on a fresh process.`,
    'bytegate authenticates every request (Basic; SOCKS5 user/password); squid, proxy-chain and dante run without auth.',
    ...notes.map((note) => `NOTE: ${note}`),
    '',
    '| | CONNECT 1 stream | CONNECT 4 streams | SOCKS5 1 stream | SOCKS5 4 streams | forward req/s (50 conn) | p50 / p99 (1 conn) | added p50 / p99 | RSS per idle tunnel |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const direct = subjects.find((subject) => subject.kind === 'baseline');
  for (const subject of subjects) {
    const label = subject.kind === 'what-if' ? `${subject.name} (what-if, bench only)` : subject.name;
    if (subject.unavailable) {
      lines.push(`| ${label} | ${subject.unavailable} | | | | | | | |`);
      continue;
    }
    const p50 = wrkFigure(subject.name, 'latency', (r) => r.p50Ms);
    const p99 = wrkFigure(subject.name, 'latency', (r) => r.p99Ms);
    const directP50 = direct && wrkFigure(direct.name, 'latency', (r) => r.p50Ms);
    const directP99 = direct && wrkFigure(direct.name, 'latency', (r) => r.p99Ms);
    const idle = idleKb.get(subject.name);
    lines.push(
      `| ${[
        label,
        cell(subject, 'connect1', mbps),
        cell(subject, 'connect4', mbps),
        cell(subject, 'socks1', mbps),
        cell(subject, 'socks4', mbps),
        cell(subject, 'rps', (value) => value.toFixed(0)),
        p50 === undefined || p99 === undefined
          ? cell(subject, 'latency', () => '')
          : `${p50.toFixed(3)} / ${p99.toFixed(3)} ms`,
        subject.kind === 'baseline' || p50 === undefined || p99 === undefined || !directP50 || !directP99
          ? ''
          : `${(p50 - directP50).toFixed(3)} / ${(p99 - directP99).toFixed(3)} ms`,
        typeof idle === 'number' ? `${idle.toFixed(1)} KB` : (idle ?? ''),
      ].join(' | ')} |`,
    );
  }

  lines.push(
    '',
    'Proxy process CPU (user+system of its process group, median over rounds; lower is better):',
    '',
    '| | CPU ms per GB, CONNECT 1 stream | CPU ms per GB, SOCKS5 1 stream | CPU µs per forward request (50 conn) |',
    '|---|---|---|---|',
  );
  for (const subject of subjects) {
    if (subject.kind === 'baseline' || subject.unavailable) {
      continue;
    }
    const show = (workload: Workload, digits: number) => {
      const value = applies(subject, workload) ? cpuFigure(subject.name, workload) : undefined;
      return value === undefined ? '' : value.toFixed(digits);
    };
    lines.push(`| ${subject.name} | ${show('connect1', 0)} | ${show('socks1', 0)} | ${show('rps', 1)} |`);
  }

  lines.push('', 'Spread of the rounds (half the max-min range, % of the median):', '');
  for (const subject of subjects) {
    if (subject.unavailable) {
      continue;
    }
    const parts = WORKLOADS.filter((workload) => applies(subject, workload) && workload !== 'latency')
      .map((workload) => `${workload} ${spread(subject.name, workload)}`)
      .filter((part) => !part.endsWith(' '));
    if (parts.length > 0) {
      lines.push(`- ${subject.name}: ${parts.join(', ')}`);
    }
  }

  // Targets.
  const ours = 'bytegate';
  const peers = subjects.filter((subject) => subject.kind === 'peer' && !subject.unavailable);
  const check = (label: string, ok: boolean | undefined, detail: string) =>
    lines.push(`- ${ok === undefined ? 'N/A ' : ok ? 'PASS' : 'MISS'} ${label}: ${detail}`);
  const fmt = (value: number | undefined, digits = 0, unit = '') =>
    value === undefined ? 'n/a' : `${value.toFixed(digits)}${unit}`;
  const beatsPeers = (workload: Workload, unit: string) => {
    const mine = figure(ours, workload);
    const theirs = peers
      .filter((peer) => applies(peer, workload))
      .map((peer) => ({ name: peer.name, value: figure(peer.name, workload) }));
    const ok =
      mine === undefined || theirs.length === 0
        ? undefined
        : theirs.every((peer) => peer.value === undefined || mine > peer.value);
    const detail = `${fmt(mine, 0, unit)} vs ${theirs.map((peer) => `${peer.name} ${fmt(peer.value, 0, unit)}`).join(', ') || 'no peer'}`;
    return { ok, detail };
  };
  lines.push('', 'Targets:', '');
  for (const [workload, label, unit] of [
    ['connect1', 'CONNECT throughput (1 stream) above every peer', ' MB/s'],
    ['connect4', 'CONNECT throughput (4 streams) above every peer', ' MB/s'],
    ['socks1', 'SOCKS5 throughput (1 stream) above dante', ' MB/s'],
    ['socks4', 'SOCKS5 throughput (4 streams) above dante', ' MB/s'],
    ['rps', 'forward req/s above every peer', ' req/s'],
  ] as const) {
    const { ok, detail } = beatsPeers(workload, unit);
    check(label, ok, detail);
  }
  const p50 = wrkFigure(ours, 'latency', (r) => r.p50Ms);
  const directP50 = wrkFigure('direct', 'latency', (r) => r.p50Ms);
  const added = p50 !== undefined && directP50 !== undefined ? p50 - directP50 : undefined;
  check('added p50 latency < 0.5 ms', added === undefined ? undefined : added < 0.5, fmt(added, 3, ' ms'));
  const idle = idleKb.get(ours);
  check(
    'RSS per idle tunnel < 20 KB',
    typeof idle === 'number' ? idle < 20 : undefined,
    typeof idle === 'number' ? `${idle.toFixed(1)} KB over ${IDLE_TUNNELS} tunnels` : String(idle ?? 'n/a'),
  );
  const costs = (['connect1', 'connect4', 'rps'] as const).map((workload) => {
    const mine = figure(ours, workload);
    const bare = figure('bare relay', workload);
    return { workload, cost: mine !== undefined && bare ? 1 - mine / bare : undefined };
  });
  check(
    'auth + limits + metering cost < 5% (bytegate vs bare relay)',
    costs.some((c) => c.cost === undefined) ? undefined : costs.every((c) => (c.cost ?? 0) < 0.05),
    `${costs.map((c) => `${c.workload} ${c.cost === undefined ? 'n/a' : `${(c.cost * 100).toFixed(1)}%`}`).join(', ')} (negative: bytegate was faster; compare with the spread above)`,
  );
  return `${lines.join('\n')}\n`;
}

const watchdog = setTimeout(() => {
  log(`watchdog: the run took over ${WATCHDOG_MS / 60_000} minutes; stopping`);
  process.stdout.write(report(true));
  stopAll();
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

try {
  await main();
  process.stdout.write(report(false));
} finally {
  clearTimeout(watchdog);
  stopAll();
  rmSync(work, { recursive: true, force: true });
}
