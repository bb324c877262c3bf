// What bench/cluster reads around each measurement: Redis' own counters (INFO commandstats and cpu: the
// whole server, so anything else using the same Redis shows up too), what each gateway process says it
// sent to Redis (exact, its own commands only) and the CPU of each gateway process.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { groupCpuMs } from '../gateway/processes.ts';
import type { CommandFigures, GatewayReading } from './gateway.ts';

export interface RunningGateway {
  name: string;
  child: ChildProcess;
  httpPort: number;
  statsPort: number;
}

export interface Snapshot {
  /** Redis server: calls per command (lower case), commands inside scripts included. */
  server: Map<string, number>;
  redisCpuMs: number;
  /** Per gateway (by name): its own commands and CPU. */
  gateways: Map<string, { reading: GatewayReading; cpuMs: number }>;
  at: number;
}

async function serverStats(redis: Redis): Promise<{ calls: Map<string, number>; cpuMs: number }> {
  const text = await redis.info('commandstats');
  const calls = new Map<string, number>();
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    calls.set(match[1] ?? '', Number(match[2]));
  }
  const cpu = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(cpu)?.[1] ?? 0);
  return { calls, cpuMs: (seconds('used_cpu_sys') + seconds('used_cpu_user')) * 1000 };
}

async function gatewayReading(gateway: RunningGateway): Promise<GatewayReading> {
  const response = await fetch(`http://127.0.0.1:${gateway.statsPort}/`);
  return (await response.json()) as GatewayReading;
}

export async function snapshot(redis: Redis, gateways: RunningGateway[]): Promise<Snapshot> {
  const server = await serverStats(redis);
  const readings = new Map<string, { reading: GatewayReading; cpuMs: number }>();
  for (const gateway of gateways) {
    readings.set(gateway.name, {
      reading: await gatewayReading(gateway),
      cpuMs: groupCpuMs(gateway.child.pid),
    });
  }
  return { server: server.calls, redisCpuMs: server.cpuMs, gateways: readings, at: performance.now() };
}

export interface Difference {
  seconds: number;
  /** Redis server calls by command, less the bench's own INFO calls. */
  server: Map<string, number>;
  redisCpuMs: number;
  /** Summed over the gateways: commands each sent, and the time to their answers. */
  sent: Map<string, CommandFigures>;
  pipelined: number;
  batches: number;
  gatewayCpuMs: number;
  fallbacks: number;
  isDegraded: boolean;
  refusals: Map<string, number>;
}

/** What happened between two snapshots (of the same gateways). */
export function difference(before: Snapshot, after: Snapshot): Difference {
  const server = new Map<string, number>();
  for (const [name, calls] of after.server) {
    const delta = calls - (before.server.get(name) ?? 0);
    if (delta > 0 && name !== 'info') {
      server.set(name, delta);
    }
  }
  const result: Difference = {
    seconds: (after.at - before.at) / 1000,
    server,
    redisCpuMs: after.redisCpuMs - before.redisCpuMs,
    sent: new Map(),
    pipelined: 0,
    batches: 0,
    gatewayCpuMs: 0,
    fallbacks: 0,
    isDegraded: false,
    refusals: new Map(),
  };
  for (const [name, { reading, cpuMs }] of after.gateways) {
    const earlier = before.gateways.get(name);
    result.gatewayCpuMs += cpuMs - (earlier?.cpuMs ?? 0);
    result.pipelined += reading.pipelined - (earlier?.reading.pipelined ?? 0);
    result.batches += reading.batches - (earlier?.reading.batches ?? 0);
    result.fallbacks +=
      (reading.sharedState?.fallbacks ?? 0) - (earlier?.reading.sharedState?.fallbacks ?? 0);
    result.isDegraded ||= reading.sharedState?.isDegraded === true;
    for (const [command, figures] of Object.entries(reading.commands)) {
      const was = earlier?.reading.commands[command];
      const calls = figures.calls - (was?.calls ?? 0);
      if (calls <= 0) {
        continue;
      }
      const sum = result.sent.get(command) ?? { calls: 0, totalMs: 0, maxMs: 0 };
      sum.calls += calls;
      sum.totalMs += figures.totalMs - (was?.totalMs ?? 0);
      sum.maxMs = Math.max(sum.maxMs, figures.maxMs);
      result.sent.set(command, sum);
    }
    for (const [code, count] of Object.entries(reading.refusals)) {
      const delta = count - (earlier?.reading.refusals[code] ?? 0);
      if (delta > 0) {
        result.refusals.set(code, (result.refusals.get(code) ?? 0) + delta);
      }
    }
  }
  return result;
}

/** Adds one difference into another (rounds of the same subject). */
export function add(into: Difference | undefined, more: Difference): Difference {
  if (!into) {
    return more;
  }
  into.seconds += more.seconds;
  into.redisCpuMs += more.redisCpuMs;
  into.gatewayCpuMs += more.gatewayCpuMs;
  into.pipelined += more.pipelined;
  into.batches += more.batches;
  into.fallbacks += more.fallbacks;
  into.isDegraded ||= more.isDegraded;
  for (const [name, calls] of more.server) {
    into.server.set(name, (into.server.get(name) ?? 0) + calls);
  }
  for (const [name, figures] of more.sent) {
    const sum = into.sent.get(name) ?? { calls: 0, totalMs: 0, maxMs: 0 };
    sum.calls += figures.calls;
    sum.totalMs += figures.totalMs;
    sum.maxMs = Math.max(sum.maxMs, figures.maxMs);
    into.sent.set(name, sum);
  }
  for (const [code, count] of more.refusals) {
    into.refusals.set(code, (into.refusals.get(code) ?? 0) + count);
  }
  return into;
}

/** Deletes every key under the bench's own prefix (SCAN, never KEYS), so the run leaves Redis as it was. */
export async function deletePrefix(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  for (let i = 0; i < 10_000; i++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) {
      deleted += await redis.del(...keys);
    }
    cursor = next;
    if (cursor === '0') {
      break;
    }
  }
  return deleted;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU ms the whole machine has been busy (every core, every process), from /proc/stat. */
export function machineBusyMs(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS;
}

/** CPU ms of the bench's own processes: this one (the load generator) and the children given. */
export function ownCpuMs(children: Array<ChildProcess | undefined>): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000 + sum(children.map((child) => groupCpuMs(child?.pid) || 0));
}

const sum = (values: number[]) => values.reduce((total, n) => total + n, 0);
