// Where a proxy's CPU goes under one workload: runs the proxy under `node --cpu-prof`, loads it, stops it
// (SIGTERM, so the profile is written) and prints the functions and files with the most self time.
//   node --import tsx bench/gateway/profile.ts <connect|socks|forward|latency|newconnect|newsocks> [bytegate|bare] [seconds]
// latency: forward requests at one kept-alive connection (each pays its own wake-ups, nothing batched).
// newconnect and newsocks: 50 loops of a new connection, CONNECT or SOCKS5, one GET, close (newconn.c).
// The .cpuprofile stays in the printed folder (open it in Chrome DevTools or speedscope).
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bulkThroughput, wrk } from './clients.ts';
import { BENCH_LOGIN, BENCH_PASSWORD } from './config.ts';
import { buildNewconn, newconnLoad, startNewconnOrigin } from './newconn.ts';
import { groupCpuMs, spawnReady, stop, stopAll, stopGracefully } from './processes.ts';
import { summarize } from './profile-summary.ts';

const [workload = 'forward', mode = 'bytegate', secondsText = '8'] = process.argv.slice(2);
const seconds = Number(secondsText);
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bytegate-profile-'));
const auth = mode === 'bytegate';

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
  } else if (workload === 'forward' || workload === 'latency') {
    const result = await wrk({
      dir,
      originPort: origin.ready.http,
      proxyPort: proxy.ready.httpPort,
      ...(auth ? { auth: `${BENCH_LOGIN}:${BENCH_PASSWORD}` } : {}),
      connections: workload === 'latency' ? 1 : 50,
      threads: 1,
      seconds,
    });
    const cpu = groupCpuMs(proxy.child.pid) - cpuBefore;
    summary = `${result.requestsPerSecond.toFixed(0)} req/s, ${((cpu * 1000) / result.requests).toFixed(1)} µs CPU per request, p50 ${(result.p50Ms * 1000).toFixed(0)} µs`;
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
