// Where a proxy's CPU goes under one workload: runs the proxy under `node --cpu-prof`, loads it, stops it
// (SIGTERM, so the profile is written) and prints the functions and files with the most self time.
//   node --import tsx bench/gateway/profile.ts <connect|socks|forward|newconnect|newsocks> [bytegate|bare] [seconds]
// newconnect and newsocks: 50 loops of a new connection, CONNECT or SOCKS5, one GET, close (newconn.c).
// The .cpuprofile stays in the printed folder (open it in Chrome DevTools or speedscope).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bulkThroughput, wrk } from './clients.ts';
import { BENCH_LOGIN, BENCH_PASSWORD } from './config.ts';
import { buildNewconn, newconnLoad, startNewconnOrigin } from './newconn.ts';
import { groupCpuMs, spawnReady, stop, stopAll, stopGracefully } from './processes.ts';

const [workload = 'forward', mode = 'bytegate', secondsText = '8'] = process.argv.slice(2);
const seconds = Number(secondsText);
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bytegate-profile-'));
const auth = mode === 'bytegate';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function summarize(file: string): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) {
      continue;
    }
    total += us;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const where = frame.url
      ? `${frame.url.replace(/^file:\/\/.*\/(packages|node_modules)\//, '$1/').replace(/^node:/, '')}`
      : '';
    const name = `${frame.functionName || '(anonymous)'} ${where ? `${basename(where)}:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const group = where
      ? where.startsWith('packages/')
        ? where
        : where.startsWith('internal/') || !where.includes('/')
          ? `node:${where.split('/').slice(0, 2).join('/')}`
          : where
      : frame.functionName;
    byFile.set(group, (byFile.get(group) ?? 0) + us);
  }
  // Inclusive time of the gateway's own functions: every sample whose stack passes through them.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame?.url.includes('/packages/')) {
        seen.add(`${frame.functionName || '(anonymous)'} ${basename(frame.url)}:${frame.lineNumber + 1}`);
      }
    }
    for (const name of seen) {
      inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
  });
  const busy = total - idle;
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([name, us]) =>
          `  ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`,
      )
      .join('\n');
  return [
    `profile ${file}`,
    `sampled ${(total / 1000).toFixed(0)} ms, busy (not idle) ${(busy / 1000).toFixed(0)} ms; shares are of busy time`,
    'top functions by self time:',
    top(byFunction, 25),
    'by file (node internals grouped by module):',
    top(byFile, 15),
    'gateway functions by inclusive time (self + what they call):',
    top(inclusive, 20),
  ].join('\n');
}

try {
  const origin = await spawnReady<{ bulk: number; http: number; idle: number }>(
    process.execPath,
    ['--import', 'tsx', 'bench/gateway/origin.ts'],
    root,
  );
  const tool = workload.startsWith('new')
    ? buildNewconn(fileURLToPath(new URL('./.cache', import.meta.url)))
    : null;
  if (tool && 'missing' in tool) {
    throw new Error(tool.missing);
  }
  const small = tool ? await startNewconnOrigin(tool.path) : null;
  const proxy = await spawnReady<{ httpPort: number; socksPort?: number }>(
    process.execPath,
    [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      '--import',
      'tsx',
      'bench/gateway/runner.ts',
      mode,
      [origin.ready.bulk, origin.ready.http, origin.ready.idle, small?.port ?? origin.ready.http].join(','),
    ],
    root,
  );
  const cpuBefore = groupCpuMs(proxy.child.pid);
  let summary = '';
  if (tool && small) {
    const socks = workload === 'newsocks';
    const result = await newconnLoad(
      tool.path,
      {
        kind: socks ? 'socks' : 'connect',
        port: socks ? (proxy.ready.socksPort ?? 0) : proxy.ready.httpPort,
        credentials: auth ? `${BENCH_LOGIN}:${BENCH_PASSWORD}` : undefined,
      },
      small.port,
      50,
      seconds,
    );
    const cpu = groupCpuMs(proxy.child.pid) - cpuBefore;
    summary = `${(result.requests / result.seconds).toFixed(0)} new tunnels/s, ${((cpu * 1000) / result.requests).toFixed(1)} µs CPU per tunnel, p50 ${result.p50Us.toFixed(0)} µs`;
    stop(small.child);
  } else if (workload === 'forward') {
    const result = await wrk({
      dir,
      originPort: origin.ready.http,
      proxyPort: proxy.ready.httpPort,
      ...(auth ? { auth: `${BENCH_LOGIN}:${BENCH_PASSWORD}` } : {}),
      connections: 50,
      threads: 1,
      seconds,
    });
    const cpu = groupCpuMs(proxy.child.pid) - cpuBefore;
    summary = `${result.requestsPerSecond.toFixed(0)} req/s, ${((cpu * 1000) / result.requests).toFixed(1)} µs CPU per request`;
  } else {
    const route =
      workload === 'socks'
        ? {
            kind: 'socks5' as const,
            port: proxy.ready.socksPort ?? 0,
            ...(auth ? { user: BENCH_LOGIN, password: BENCH_PASSWORD } : {}),
          }
        : {
            kind: 'connect' as const,
            port: proxy.ready.httpPort,
            ...(auth ? { auth: `${BENCH_LOGIN}:${BENCH_PASSWORD}` } : {}),
          };
    const bytes = 256 * 1024 * 1024;
    const deadline = Date.now() + seconds * 1000;
    const rates: number[] = [];
    while (Date.now() < deadline) {
      rates.push(await bulkThroughput(route, origin.ready.bulk, 1, bytes));
    }
    const cpu = groupCpuMs(proxy.child.pid) - cpuBefore;
    summary = `${rates.map((rate) => rate.toFixed(0)).join(', ')} MB/s; ${(cpu / ((rates.length * bytes) / 1e9)).toFixed(0)} ms CPU per GB`;
  }
  await stopGracefully(proxy.child);
  stop(origin.child);
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  process.stdout.write(`${mode} ${workload}: ${summary}\n`);
  process.stdout.write(file ? `${summarize(join(dir, file))}\n` : `no profile was written in ${dir}\n`);
} finally {
  stopAll();
}
