// The report of bench/cluster: one table against the in-process gateway of the same run, then where the
// time goes (CPU per tunnel, Redis commands per tunnel and how long the gateways waited for them).
import { availableParallelism, loadavg } from 'node:os';
import { median } from '../gateway/clients.ts';
import type { Difference, RunningGateway } from './readings.ts';
import { percentile, type RateResult } from './tunnels.ts';

export interface Subject {
  name: string;
  gateways: RunningGateway[];
}

export interface Shape {
  clients: number;
  rateRounds: number;
  rateSeconds: number;
  maxTunnelsPerRound: number;
  smallBytes: number;
  latencyRounds: number;
  latencySamples: number;
  latencySeconds: number;
  bulkBytes: number;
  bulkRounds: number;
  quietSeconds: number;
}

export interface Measured {
  rateRounds: Array<RateResult & { loadCpuMs: number; otherCpuMs: number }>;
  rateDiff?: Difference;
  latency: number[];
  latencyDiff?: Difference;
  bulk: number[];
  bulkError?: string;
  bulkDiff?: Difference;
}

export interface Run {
  subjects: Subject[];
  measured: Map<string, Measured>;
  /** The quiet window before the load: what Redis and the idle gateways do on their own. */
  quiet: Difference;
  /** CPU beside the bench's processes and Redis over every measurement, as a share of one core. */
  otherCpu: { seconds: number; share: number };
  shape: Shape;
  startLoad: number[];
  versions: string;
  redisUrl: string;
  prefix: string;
}

const BASE = 'in-process';
/** CPU beside the bench's processes and Redis, as a share of one core, over which a round is suspect. */
const OTHER_LOAD_WARNING = 0.25;
const sum = (values: Iterable<number>) => [...values].reduce((total, n) => total + n, 0);
const ratio = (value: number | undefined, base: number | undefined) =>
  value === undefined || base === undefined || !Number.isFinite(value) || !base
    ? ''
    : `${(value / base).toFixed(2)}x`;
const fixed = (value: number | undefined, digits: number, unit = '') =>
  value === undefined || !Number.isFinite(value) ? 'n/a' : `${value.toFixed(digits)}${unit}`;

function rate(entry: Measured | undefined) {
  const rounds = entry?.rateRounds ?? [];
  const tunnels = sum(rounds.map((round) => round.tunnels));
  const seconds = sum(rounds.map((round) => round.seconds));
  return {
    tunnels,
    seconds,
    /** The median round, as bench/gateway does (the per-tunnel figures below are over all rounds). */
    perSecond: rounds.length > 0 ? median(rounds.map((round) => round.tunnels / round.seconds)) : undefined,
    perRound: rounds.map((round) => (round.tunnels / round.seconds).toFixed(0)).join(', '),
    errors: sum(rounds.map((round) => round.errors)),
    firstError: rounds.find((round) => round.firstError)?.firstError,
    loadCpu: seconds > 0 ? sum(rounds.map((round) => round.loadCpuMs)) / (seconds * 1000) : undefined,
    /** Busiest round's CPU outside the bench's processes and Redis, as a share of one core. */
    otherCpu: Math.max(0, ...rounds.map((round) => round.otherCpuMs / (round.seconds * 1000))),
  };
}

/** Calls of each command per tunnel, largest first: "name 1.00, other 0.50". */
function perTunnel(calls: Map<string, number>, tunnels: number, detail?: (name: string) => string): string {
  return [...calls]
    .filter(([, count]) => count / tunnels >= 0.005)
    .sort((a, b) => b[1] - a[1])
    .map(([name, count]) => `${name} ${(count / tunnels).toFixed(2)}${detail?.(name) ?? ''}`)
    .join(', ');
}

/** Mean answer time (ms) of each command the gateways sent, for the commands given. */
function waits(diff: Difference | undefined, names: string[]): string {
  return names
    .map((name) => {
      const figures = diff?.sent.get(name);
      return figures
        ? `${name} ${(figures.totalMs / figures.calls).toFixed(3)} ms (${figures.calls} calls)`
        : '';
    })
    .filter(Boolean)
    .join(', ');
}

/** Writes to Redis: each command outside a pipeline is one, each pipeline is one for all its commands. */
function writes(diff: Difference): number {
  return sum([...diff.sent.values()].map((figures) => figures.calls)) - diff.pipelined + diff.batches;
}

export function report(run: Run): string {
  const { subjects, measured, quiet, shape } = run;
  const base = measured.get(BASE);
  const baseRate = rate(base).perSecond;
  const baseP50 = base && base.latency.length > 0 ? percentile(base.latency, 0.5) : undefined;
  const baseP99 = base && base.latency.length > 0 ? percentile(base.latency, 0.99) : undefined;
  const baseBulk = base && base.bulk.length > 0 ? median(base.bulk) : undefined;
  const endLoad = loadavg();
  const lines = [
    '',
    '# bench/cluster',
    '',
    `${availableParallelism()} cores; load average (1/5/15 min) ${run.startLoad.map((n) => n.toFixed(2)).join(' / ')} at start, ` +
      `${endLoad.map((n) => n.toFixed(2)).join(' / ')} at the end; ${run.versions}.`,
    'Every gateway is runGateway in its own process over one fresh PostgreSQL database, exits on 127.0.0.2/127.0.0.3. ' +
      `in-process: no REDIS_URL (thread slots, traffic and sessions in the gateway's own memory). shared x2: two gateways with REDIS_URL=${run.redisUrl}, REDIS_PREFIX=${run.prefix}, ` +
      'the clients spread over both. shared x1: one of those two alone (a reference: Redis round trips without a second process).',
    `Tunnel: CONNECT to a local origin, ask it for ${shape.smallBytes} bytes, read them until it ends, close. ` +
      `Rate: ${shape.clients} clients in the bench process, ${shape.rateRounds} rounds x ${shape.rateSeconds} s per subject ` +
      `(at most ${shape.maxTunnelsPerRound} tunnels a round), interleaved, median round. Latency: one client, tunnels one after another, ` +
      `time from writing the CONNECT to reading the whole 200 head, ${shape.latencyRounds} x ${shape.latencySamples} per subject. ` +
      `Download: ${shape.bulkBytes / 1024 / 1024} MiB through one tunnel, median of ${shape.bulkRounds}.`,
    ...(availableParallelism() <= 2
      ? [
          `NOTE: ${availableParallelism()} cores for the load generator, the gateways, the origin, Redis and PostgreSQL together: ` +
            'shared x2 cannot show two gateways scaling out here, only what sharing costs (see the gateway CPU column).',
        ]
      : []),
    '',
    `| | tunnels/s (${shape.clients} clients) | vs ${BASE} | CONNECT→200 p50 / p99 (1 client) | added p50 / p99 | p50 vs ${BASE} | ${shape.bulkBytes / 1024 / 1024} MiB download | vs ${BASE} |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const subject of subjects) {
    const entry = measured.get(subject.name);
    const { perSecond, perRound, errors, firstError } = rate(entry);
    const p50 = entry && entry.latency.length > 0 ? percentile(entry.latency, 0.5) : undefined;
    const p99 = entry && entry.latency.length > 0 ? percentile(entry.latency, 0.99) : undefined;
    const bulk = entry && entry.bulk.length > 0 ? median(entry.bulk) : undefined;
    const isBase = subject.name === BASE;
    lines.push(
      `| ${[
        subject.name,
        `${fixed(perSecond, 0)} (rounds ${perRound})${errors ? ` [${errors} failed: ${firstError}]` : ''}`,
        isBase ? '' : ratio(perSecond, baseRate),
        `${fixed(p50, 3)} / ${fixed(p99, 3)} ms`,
        isBase || p50 === undefined || p99 === undefined || baseP50 === undefined || baseP99 === undefined
          ? ''
          : `${(p50 - baseP50).toFixed(3)} / ${(p99 - baseP99).toFixed(3)} ms`,
        isBase ? '' : ratio(p50, baseP50),
        bulk === undefined
          ? `failed: ${entry?.bulkError ?? 'n/a'}`
          : `${bulk.toFixed(0)} MB/s (${entry?.bulk.map((v) => v.toFixed(0)).join(', ')})`,
        isBase ? '' : ratio(bulk, baseBulk),
      ].join(' | ')} |`,
    );
  }

  // Where the time goes, in the rate phase.
  const quietServerPerSecond = sum(quiet.server.values()) / quiet.seconds;
  const quietRedisCpuPerSecond = quiet.redisCpuMs / quiet.seconds;
  lines.push(
    '',
    'Where the time goes (tunnel-rate phase; CPU of one core = 100%):',
    '',
    '| | gateway CPU per tunnel | gateway CPU | Redis CPU per tunnel | load generator CPU | other CPU (busiest round) | Redis commands sent per tunnel | writes to Redis per tunnel | refusals |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const subject of subjects) {
    const entry = measured.get(subject.name);
    const { tunnels, seconds, loadCpu, otherCpu } = rate(entry);
    const diff = entry?.rateDiff;
    if (!diff || tunnels === 0) {
      lines.push(`| ${subject.name} | n/a | | | | | | | |`);
      continue;
    }
    const redisCpu = (diff.redisCpuMs - quietRedisCpuPerSecond * seconds) * 1000;
    lines.push(
      `| ${[
        subject.name,
        `${((diff.gatewayCpuMs * 1000) / tunnels).toFixed(0)} µs`,
        `${((diff.gatewayCpuMs / (seconds * 1000)) * 100).toFixed(0)}% (${subject.gateways.length} process${subject.gateways.length > 1 ? 'es' : ''})`,
        `${Math.max(0, redisCpu / tunnels).toFixed(1)} µs`,
        fixed((loadCpu ?? Number.NaN) * 100, 0, '%'),
        `${(otherCpu * 100).toFixed(0)}%`,
        (sum([...diff.sent.values()].map((figures) => figures.calls)) / tunnels).toFixed(2),
        (writes(diff) / tunnels).toFixed(2),
        [...diff.refusals].map(([code, count]) => `${code} x${count}`).join(', '),
      ].join(' | ')} |`,
    );
  }

  const busiest = Math.max(...subjects.map((subject) => rate(measured.get(subject.name)).otherCpu));
  lines.push(
    '',
    busiest > OTHER_LOAD_WARNING
      ? `!!! Something else kept the machine busy during the rates (up to ${(busiest * 100).toFixed(0)}% of a core beside ` +
          "the bench's processes and Redis; PostgreSQL counts here too): the rates and latencies are unreliable, " +
          'run again on a quiet machine. The CPU-per-tunnel and Redis-per-tunnel figures hold up better. !!!'
      : `Other CPU (PostgreSQL, anything else on the machine) stayed under ${OTHER_LOAD_WARNING * 100}% of a core in every round.`,
    `Over all ${run.otherCpu.seconds.toFixed(0)} s of measurements (quiet window to the last download) other CPU averaged ` +
      `${(run.otherCpu.share * 100).toFixed(0)}% of a core${run.otherCpu.share > OTHER_LOAD_WARNING ? ' (!!! not a quiet machine)' : ''}.`,
  );

  const shared = measured.get('shared x2');
  const sharedRate = rate(shared);
  const diff = shared?.rateDiff;
  if (diff && sharedRate.tunnels > 0) {
    const tunnels = sharedRate.tunnels;
    const sentCalls = new Map([...diff.sent].map(([name, figures]) => [name, figures.calls]));
    const serverCalls = new Map(
      [...diff.server].map(([name, calls]) => [
        name,
        Math.max(0, calls - ((quiet.server.get(name) ?? 0) / quiet.seconds) * diff.seconds),
      ]),
    );
    const rawServer = sum(diff.server.values());
    lines.push(
      '',
      `Redis operations per tunnel, shared x2 (tunnel-rate phase: ${tunnels} tunnels in ${sharedRate.seconds.toFixed(1)} s):`,
      '',
      "- sent by the gateways (counted in each gateway process by wrapping ioredis' sendCommand, exact: its own " +
        'commands only, heartbeats included; the wrapper costs the shared gateways a percent or two of CPU): ' +
        `${(sum(sentCalls.values()) / tunnels).toFixed(2)} per tunnel in ${(writes(diff) / tunnels).toFixed(2)} writes ` +
        `(${diff.pipelined} of ${sum(sentCalls.values())} commands went out in ${diff.batches} ioredis pipelines, ` +
        `${(diff.pipelined / Math.max(1, diff.batches)).toFixed(1)} commands each on average): ` +
        perTunnel(sentCalls, tunnels, (name) => {
          const figures = diff.sent.get(name);
          return figures
            ? ` (answered in ${(figures.totalMs / figures.calls).toFixed(2)} ms on average)`
            : '';
        }),
      `- seen by the Redis server (INFO commandstats: commands run inside scripts count too, INFO itself does not): ` +
        `${(sum(serverCalls.values()) / tunnels).toFixed(2)} per tunnel after taking off a background of ` +
        `${quietServerPerSecond.toFixed(1)} commands/s (raw: ${(rawServer / tunnels).toFixed(2)}): ${perTunnel(serverCalls, tunnels)}`,
      `- the background was measured over a ${shape.quietSeconds} s quiet window just before the load, with the gateways idle. ` +
        "Other clients of the same Redis count in the server figures (not in the gateways' own counts): " +
        (quietServerPerSecond > 20
          ? `Redis was NOT quiet (${quietServerPerSecond.toFixed(0)} commands/s beside us): trust the gateways' own counts.`
          : 'Redis was quiet then; a burst from elsewhere during the load would still count.'),
    );
  }

  lines.push(
    '',
    'How long the gateways waited for Redis (mean answer time seen by the gateway, 1-client latency phase):',
    '',
  );
  for (const subject of subjects.filter((s) => s.name !== BASE)) {
    const entry = measured.get(subject.name);
    lines.push(
      `- ${subject.name}: ${
        waits(
          entry?.latencyDiff,
          [...(entry?.latencyDiff?.sent.keys() ?? [])].filter((name) => !name.startsWith('set gw')),
        ) || 'no commands'
      }`,
    );
  }
  const bulkDiff = measured.get('shared x2')?.bulkDiff;
  const bulkRounds = measured.get('shared x2')?.bulk.length ?? 0;
  if (bulkDiff && bulkRounds > 0) {
    const draws = bulkDiff.sent.get('evalsha traffic draw')?.calls ?? 0;
    lines.push(
      '',
      `Download through shared x2: ${(draws / bulkRounds).toFixed(1)} traffic draws from Redis per ${shape.bulkBytes / 1024 / 1024} MiB ` +
        `(${waits(bulkDiff, ['evalsha traffic draw']) || 'none'}); all Redis commands: ${perTunnel(new Map([...bulkDiff.sent].map(([n, f]) => [n, f.calls])), bulkRounds)} per download.`,
    );
  }
  const fallbacks = sum(
    [...measured.values()].flatMap((entry) =>
      [entry.rateDiff, entry.latencyDiff, entry.bulkDiff].map((d) => d?.fallbacks ?? 0),
    ),
  );
  const isDegraded = [...measured.values()].some(
    (entry) => entry.rateDiff?.isDegraded || entry.latencyDiff?.isDegraded,
  );
  lines.push(
    '',
    fallbacks > 0 || isDegraded
      ? `NOTE: the shared gateways fell back to local limits ${fallbacks} times (a Redis command failed or took over 500 ms)${isDegraded ? ', and were degraded at a reading' : ''}: those connections did not wait for Redis.`
      : 'The shared gateways never fell back to local limits (every Redis command answered within 500 ms).',
  );
  return `${lines.join('\n')}\n`;
}
