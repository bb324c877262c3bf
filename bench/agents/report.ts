// The report of bench:agents: throughput and CPU per GiB through an agent against the direct exit, a new
// tunnel's latency through each, the hub's memory per idle agent, and one PASS or MISS line per goal.
import { loadavg } from 'node:os';
import { type BenchResult, type BulkRow, GOALS, type MemoryRow } from './run.ts';

const count = (n: number) => n.toLocaleString('en-US');
const verdict = (ok: boolean, text: string) => `${ok ? 'PASS' : 'MISS'} ${text}`;
const GIB = 1024 ** 3;
const KIB = 1024;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

/** MB/s (10^6 bytes a second) of a row: the median round. */
export function throughput(row: BulkRow): number {
  return row.bytes / median(row.seconds) / 1e6;
}

/** CPU ms per GiB carried: all rounds' CPU over all rounds' bytes. */
function cpuPerGib(row: BulkRow, cpuMs: number[]): number {
  const sum = cpuMs.reduce((total, value) => total + value, 0);
  return sum / ((row.bytes * row.seconds.length) / GIB);
}

/** KiB of the hub's RSS and of its heap per connected agent (after against before, after full collections). */
export function perAgent(row: MemoryRow): { rssKib: number; heapKib: number; externalKib: number } {
  const per = (key: 'rss' | 'heapUsed' | 'external') =>
    row.connected > 0 ? (row.after[key] - row.before[key]) / row.connected / KIB : Number.NaN;
  return { rssKib: per('rss'), heapKib: per('heapUsed'), externalKib: per('external') };
}

export function report(result: BenchResult): string[] {
  const lines = [
    '',
    `# bench:agents: exit agents against the direct exit (node ${process.version}, load average ${loadavg()[0]?.toFixed(1)})`,
    '',
    'Through the real gateway: CONNECT tunnels to a local origin (its own process) with the plan whose',
    'exit is the direct one (bound to 127.0.0.2) or the plan whose exit is an agent (ExitAgent in its own',
    'process, from 127.0.0.11, over TLS and HTTP/2 to the hub in the gateway process). Every byte read is',
    'checked against what the origin sent. Rounds interleave the two; a figure is the median round. CPU:',
    "process.cpuUsage (user + system) of the gateway+hub process, and of the agent's process, per GiB over",
    'all rounds (the client and the origin are processes of their own, not counted).',
    '',
    '| exit | streams | MB/s (median) | rounds | gateway+hub CPU ms/GiB | agent CPU ms/GiB | both ms/GiB |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of result.bulk) {
    const gateway = cpuPerGib(row, row.gatewayCpuMs);
    const agent = row.via === 'agent' ? cpuPerGib(row, row.agentCpuMs) : 0;
    lines.push(
      `| ${row.via} | ${row.streams} | ${throughput(row).toFixed(0)} | ${row.seconds.length} | ` +
        `${gateway.toFixed(0)} | ${row.via === 'agent' ? agent.toFixed(0) : '-'} | ${(gateway + agent).toFixed(0)} |`,
    );
  }
  const { direct, agent } = result.latency;
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  lines.push(
    '',
    `New tunnels, one at a time, alternating exits (${direct.firstByteMs.length} each): from the connection to`,
    "the gateway to the CONNECT's 200, and to the origin's first byte through it.",
    '',
    '| exit | 200 p50 | 200 p99 | first byte p50 | first byte p99 |',
    '|---|---:|---:|---:|---:|',
    ...(['direct', 'agent'] as const).map((via) => {
      const { openMs, firstByteMs } = result.latency[via];
      return (
        `| ${via} | ${ms(median(openMs))} | ${ms(percentile(openMs, 0.99))} | ` +
        `${ms(median(firstByteMs))} | ${ms(percentile(firstByteMs, 0.99))} |`
      );
    }),
    '',
    `Added by the agent: ${ms(median(agent.firstByteMs) - median(direct.firstByteMs))} at p50, ` +
      `${ms(percentile(agent.firstByteMs, 0.99) - percentile(direct.firstByteMs, 0.99))} at p99 (first byte).`,
    '',
    'Idle agents on a fresh hub (gateway+hub process alone; the agents are ExitAgent instances in another',
    'process, from 127.0.0.20-254): its RSS and heap after full collections (--expose-gc), after the',
    `agents connected and a few seconds idle, against before; per connected agent. Descriptor limit of a child: ${count(result.fdLimit)}.`,
    '',
    '| agents | connected | connect time | RSS KiB/agent | heap KiB/agent | external KiB/agent | RSS after |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...result.memory.map((row) => {
      const { rssKib, heapKib, externalKib } = perAgent(row);
      return (
        `| ${count(row.wanted)} | ${count(row.connected)} | ${row.connectSeconds.toFixed(1)} s | ` +
        `${rssKib.toFixed(1)} | ${heapKib.toFixed(1)} | ${externalKib.toFixed(1)} | ` +
        `${(row.after.rss / 1024 ** 2).toFixed(0)} MiB |`
      );
    }),
    '',
  );
  for (const row of result.memory) {
    if (row.capped) {
      lines.push(`Asked for fewer than ${count(row.wanted)} agents: ${row.capped}.`);
    }
    if (row.failed > 0) {
      const reasons = Object.entries(row.reasons)
        .map(([reason, n]) => `${reason} (${n})`)
        .join(', ');
      lines.push(`${count(row.failed)} of ${count(row.wanted)} agents failed to connect: ${reasons}.`);
    }
  }
  for (const streams of [...new Set(result.bulk.map((row) => row.streams))]) {
    const directRow = result.bulk.find((row) => row.via === 'direct' && row.streams === streams);
    const agentRow = result.bulk.find((row) => row.via === 'agent' && row.streams === streams);
    if (!directRow || !agentRow) {
      continue;
    }
    const ratio = throughput(agentRow) / throughput(directRow);
    lines.push(
      verdict(
        ratio >= GOALS.throughputRatio,
        `agent throughput at least ${GOALS.throughputRatio}x the direct exit's, ${streams} stream${streams > 1 ? 's' : ''}: ` +
          `${ratio.toFixed(2)}x (${throughput(agentRow).toFixed(0)} MB/s against ${throughput(directRow).toFixed(0)} MB/s)`,
      ),
    );
  }
  for (const row of result.memory) {
    const { rssKib, heapKib } = perAgent(row);
    const whole = row.connected === row.wanted;
    lines.push(
      verdict(
        whole && rssKib < GOALS.kibPerAgent,
        `hub memory per idle agent at ${count(row.wanted)} under ${GOALS.kibPerAgent} KiB: ${rssKib.toFixed(1)} KiB RSS ` +
          `(heap ${heapKib.toFixed(1)} KiB)${whole ? '' : `, ${count(row.connected)} of ${count(row.wanted)} connected`}`,
      ),
    );
  }
  return lines;
}
