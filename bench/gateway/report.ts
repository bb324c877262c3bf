// bench/gateway's results: what a run measured, and the report printed from it.
import type { ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { median, type WrkResult } from './clients.ts';

export type Workload =
  | 'connect1'
  | 'connect4'
  | 'socks1'
  | 'socks4'
  | 'rps'
  | 'latency'
  | 'newconnect'
  | 'newsocks'
  | 'newlatency'
  | 'fwdbulk';
export const WORKLOADS: Workload[] = [
  'connect1',
  'connect4',
  'socks1',
  'socks4',
  'rps',
  'latency',
  'newconnect',
  'newsocks',
  'newlatency',
  'fwdbulk',
];
/** Workloads over the HTTP proxy port's forward path (absolute-form requests), not tunnels. */
const FORWARD_WORKLOADS: ReadonlySet<Workload> = new Set(['rps', 'latency', 'fwdbulk']);

export interface Subject {
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
  /** Its HTTP port opens CONNECT tunnels only (no forward path). */
  tunnelsOnly?: boolean;
  unavailable?: string;
}

export interface Measured {
  values: number[];
  /** Proxy CPU per unit: ms per GB for bulk, µs per request for wrk and per tunnel for new connections. */
  cpu: number[];
  /** New connections: the p50 of one round, µs from connect() to the answer's last byte. */
  p50Us: number[];
  wrk: WrkResult[];
  errors: string[];
}

/** The bounds a run used, printed with its figures. */
export interface RunShape {
  BULK_BYTES: number;
  BULK_ROUNDS: number;
  RPS_CONNECTIONS: number;
  RPS_SECONDS: number;
  RPS_ROUNDS: number;
  LATENCY_SECONDS: number;
  LATENCY_ROUNDS: number;
  IDLE_TUNNELS: number;
  NEW_CONNECTIONS: number;
  NEW_SECONDS: number;
  NEW_ROUNDS: number;
}

export interface Run {
  subjects: Subject[];
  measured: Map<string, Map<Workload, Measured>>;
  idleKb: Map<string, number | string>;
  notes: string[];
  versions: string[];
  startLoad: number[];
  shape: RunShape;
}

/** Whether a subject runs a workload (a SOCKS5 one needs a SOCKS5 port, and so on). */
export function appliesTo(subject: Subject, workload: Workload): boolean {
  if (subject.unavailable || (subject.only && !subject.only.includes(workload))) {
    return false;
  }
  if (subject.kind === 'baseline') {
    return true;
  }
  if (FORWARD_WORKLOADS.has(workload) && subject.tunnelsOnly) {
    return false;
  }
  return workload.startsWith('socks') || workload === 'newsocks'
    ? subject.socksPort !== undefined
    : subject.httpPort !== undefined;
}

/** Reading the medians back out of a run. */
function readings(run: Run) {
  const { measured } = run;
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
    if (!appliesTo(subject, workload)) {
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
  return { figure, wrkFigure, cpuFigure, pct, cell, spread };
}

/** The table, CPU figures, spreads and PASS/MISS lines of a run (partial when the watchdog stopped it). */
export function report(run: Run, partial: boolean): string {
  const { subjects, idleKb, notes, versions, startLoad, shape, measured } = run;
  const { figure, wrkFigure, cpuFigure, cell, spread } = readings(run);
  const {
    BULK_BYTES,
    BULK_ROUNDS,
    RPS_CONNECTIONS,
    RPS_SECONDS,
    RPS_ROUNDS,
    LATENCY_SECONDS,
    LATENCY_ROUNDS,
    IDLE_TUNNELS,
  } = shape;
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

  const us = (value: number) => `${value.toFixed(0)} µs`;
  lines.push(
    '',
    `New connections: ${shape.NEW_CONNECTIONS} loops, each a new TCP connection, CONNECT (or SOCKS5) and one GET of 1 KiB ` +
      `from a C origin, read whole, then close (newconn.c, C, so the client costs the cores little); ${shape.NEW_SECONDS} s x ` +
      `${shape.NEW_ROUNDS} rounds. Latency: 1 loop, p50 from connect() to the answer's last byte; added = proxy minus direct. ` +
      `Forward bulk: one GET of ${BULK_BYTES / 1024 / 1024} MiB (Content-Length) through the forward path, ${BULK_ROUNDS} rounds.`,
    '',
    '| | new CONNECT+GET req/s | CPU µs per tunnel | new SOCKS5+GET req/s | CPU µs per tunnel | new tunnel p50 (1 conn) | added p50 | forward bulk | CPU ms per GB, forward bulk |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  const p50Of = (name: string, workload: Workload) => {
    const values = measured.get(name)?.get(workload)?.p50Us ?? [];
    return values.length > 0 ? median(values) : undefined;
  };
  const directNewP50 = direct ? p50Of(direct.name, 'newlatency') : undefined;
  for (const subject of subjects) {
    if (subject.unavailable) {
      continue;
    }
    const cpu = (workload: Workload, digits: number) => {
      const value = subject.kind === 'baseline' ? undefined : cpuFigure(subject.name, workload);
      return value === undefined ? '' : value.toFixed(digits);
    };
    const newP50 = p50Of(subject.name, 'newlatency');
    lines.push(
      `| ${[
        subject.name,
        cell(subject, 'newconnect', (value) => value.toFixed(0)),
        cpu('newconnect', 0),
        cell(subject, 'newsocks', (value) => value.toFixed(0)),
        cpu('newsocks', 0),
        newP50 === undefined ? cell(subject, 'newlatency', () => '') : us(newP50),
        subject.kind === 'baseline' || newP50 === undefined || directNewP50 === undefined
          ? ''
          : `+${us(newP50 - directNewP50)}`,
        cell(subject, 'fwdbulk', mbps),
        cpu('fwdbulk', 0),
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
      const value = appliesTo(subject, workload) ? cpuFigure(subject.name, workload) : undefined;
      return value === undefined ? '' : value.toFixed(digits);
    };
    lines.push(`| ${subject.name} | ${show('connect1', 0)} | ${show('socks1', 0)} | ${show('rps', 1)} |`);
  }

  lines.push('', 'Spread of the rounds (half the max-min range, % of the median):', '');
  for (const subject of subjects) {
    if (subject.unavailable) {
      continue;
    }
    const parts = WORKLOADS.filter((workload) => appliesTo(subject, workload) && workload !== 'latency')
      .map((workload) => `${workload} ${spread(subject.name, workload)}`)
      .filter((part) => !part.endsWith(' '));
    if (parts.length > 0) {
      lines.push(`- ${subject.name}: ${parts.join(', ')}`);
    }
  }

  // Targets.
  const ours = 'bytegate';
  /** Node's own floor (runner.ts `floor`): sockets piped, nothing else. */
  const FLOOR = 'node floor';
  const peers = subjects.filter((subject) => subject.kind === 'peer' && !subject.unavailable);
  const check = (label: string, ok: boolean | undefined, detail: string) =>
    lines.push(`- ${ok === undefined ? 'N/A ' : ok ? 'PASS' : 'MISS'} ${label}: ${detail}`);
  const fmt = (value: number | undefined, digits = 0, unit = '') =>
    value === undefined ? 'n/a' : `${value.toFixed(digits)}${unit}`;
  const beatsPeers = (workload: Workload, unit: string) => {
    const mine = figure(ours, workload);
    const theirs = peers
      .filter((peer) => appliesTo(peer, workload))
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
  /** Added latency in µs: a proxy's p50 (ms) minus the direct one's. */
  const addedUs = (value: number | undefined) =>
    value !== undefined && directP50 !== undefined ? (value - directP50) * 1000 : undefined;
  const added = addedUs(p50);
  check(
    'added p50 latency of a kept-alive forward request < 100 µs',
    added === undefined ? undefined : added < 100,
    `${fmt(added, 0, ' µs')} (node floor ${fmt(addedUs(wrkFigure(FLOOR, 'latency', (r) => r.p50Ms)), 0, ' µs')})`,
  );
  const squidNew = figure('squid', 'newconnect');
  const oursNew = figure(ours, 'newconnect');
  check(
    'new connection + CONNECT + GET at least 1.3x squid',
    oursNew === undefined || squidNew === undefined ? undefined : oursNew >= 1.3 * squidNew,
    `${fmt(oursNew, 0, ' req/s')} vs squid ${fmt(squidNew, 0, ' req/s')} (${oursNew && squidNew ? (oursNew / squidNew).toFixed(2) : 'n/a'}x; node floor ${fmt(figure(FLOOR, 'newconnect'), 0, ' req/s')})`,
  );
  const tunnelCpu = cpuFigure(ours, 'newconnect');
  check(
    'gateway CPU per new tunnel <= 150 µs (auth, limits, metering on)',
    tunnelCpu === undefined ? undefined : tunnelCpu <= 150,
    `${fmt(tunnelCpu, 0, ' µs')} (bare relay ${fmt(cpuFigure('bare relay', 'newconnect'), 0, ' µs')}, node floor ${fmt(cpuFigure(FLOOR, 'newconnect'), 0, ' µs')})`,
  );
  const newSocks = beatsPeers('newsocks', ' req/s');
  check('new SOCKS5 connection + GET ahead of every peer', newSocks.ok, newSocks.detail);
  const oursNewP50 = p50Of(ours, 'newlatency');
  const peerNewP50 = peers
    .filter((peer) => appliesTo(peer, 'newlatency'))
    .map((peer) => ({ name: peer.name, value: p50Of(peer.name, 'newlatency') }));
  const addedOf = (value: number | undefined) =>
    value === undefined || directNewP50 === undefined ? undefined : value - directNewP50;
  check(
    'added p50 latency of a new CONNECT tunnel under every peer',
    oursNewP50 === undefined || peerNewP50.length === 0
      ? undefined
      : peerNewP50.every((peer) => peer.value === undefined || oursNewP50 < peer.value),
    `+${fmt(addedOf(oursNewP50), 0, ' µs')} vs ${peerNewP50.map((peer) => `${peer.name} +${fmt(addedOf(peer.value), 0, ' µs')}`).join(', ')} (node floor +${fmt(addedOf(p50Of(FLOOR, 'newlatency')), 0, ' µs')})`,
  );
  const fwdCpu = cpuFigure(ours, 'fwdbulk');
  const connectCpu = cpuFigure(ours, 'connect1');
  check(
    "forward bulk CPU per GB within 1.25x of CONNECT's",
    fwdCpu === undefined || connectCpu === undefined ? undefined : fwdCpu <= 1.25 * connectCpu,
    `${fmt(fwdCpu, 0, ' ms')} vs ${fmt(connectCpu, 0, ' ms')} per GB (${fwdCpu && connectCpu ? (fwdCpu / connectCpu).toFixed(2) : 'n/a'}x)`,
  );
  const idle = idleKb.get(ours);
  const chainIdle = idleKb.get('proxy-chain');
  check(
    "RSS per idle tunnel at or under proxy-chain's",
    typeof idle === 'number' && typeof chainIdle === 'number' ? idle <= chainIdle : undefined,
    `${typeof idle === 'number' ? `${idle.toFixed(1)} KB` : String(idle ?? 'n/a')} vs proxy-chain ${typeof chainIdle === 'number' ? `${chainIdle.toFixed(1)} KB` : String(chainIdle ?? 'n/a')} over ${IDLE_TUNNELS} tunnels`,
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
