// `npm run cluster`: the production topology of deploy/README.md on this machine, one process per part,
// on the local PostgreSQL and Redis: `bytegate migrate` once, then a web+api process, two gateways and a
// jobs process. Every child's lines are prefixed with its name; Ctrl-C drains them all.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ensureWebBuilt } from './build-web.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
// The same steps as `npm start`: ensure-deps installs on import (a fresh clone has no `pg` yet, hence the
// dynamic imports below), then the web app is built when stale.
await import('./ensure-deps.mjs');
try {
  await ensureWebBuilt();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const { default: pg } = await import('pg');

const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/bytegate_cluster';
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const port = Number(process.env.PORT || 3000);
// 2 is the topology; 1 runs it while a second gateway is still refused on one database (sole-process.ts).
const gatewayCount = Number(process.env.CLUSTER_GATEWAYS || 2);
if (gatewayCount !== 1 && gatewayCount !== 2) {
  console.error('CLUSTER_GATEWAYS must be 1 or 2');
  process.exit(1);
}
const bin = 'apps/server/bin/bytegate.mjs';

/** The settings every child shares; each part adds its own (ROLES, ports) below. */
const shared = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  // Its own keys, so a cluster beside `npm start` or the test suites on one Redis counts apart.
  REDIS_PREFIX: process.env.REDIS_PREFIX || 'bytegate-cluster:',
  // The outbox (mail without SMTP_URL): written and read by the web+api process, kept apart from ./data.
  DATA_DIR: process.env.DATA_DIR || 'data/cluster',
  // Every process gets it: the jobs reach the payment sandboxes of the web+api process over this port.
  PORT: String(port),
  // Set per part below: only the gateways and the jobs open a metrics port.
  METRICS_PORT: undefined,
};

/** Gateway n (1-based): its HTTP, SOCKS5 and sticky ports, apart from the other's. */
const gatewayPorts = (n) => ({
  GATEWAY_HTTP_PORT: String(8070 + 10 * n),
  GATEWAY_SOCKS_PORT: String(1070 + 10 * n),
  GATEWAY_STICKY_PORTS: `${10000 + 100 * (n - 1)}-${10099 + 100 * (n - 1)}`,
});

const parts = [
  // Shows customers gateway 1's ports (Proxy Setup reads the GATEWAY_* settings of the API process).
  { name: 'web-api', env: { ROLES: 'web,api', ...gatewayPorts(1) }, health: port },
  // No HTTP port: health and /metrics on a metrics port of their own, 9101 and 9102.
  ...Array.from({ length: gatewayCount }, (_, i) => ({
    name: `gateway-${i + 1}`,
    env: { ROLES: 'gateway', ...gatewayPorts(i + 1), METRICS_PORT: String(9101 + i) },
    health: 9101 + i,
  })),
  { name: 'jobs', env: { ROLES: 'jobs', METRICS_PORT: '9103' }, health: 9103 },
];

const width = Math.max(...parts.map((part) => part.name.length), 'migrate'.length);
const colors = [36, 32, 35, 33, 34, 31];
const label = (name, index) => {
  const text = name.padEnd(width);
  return process.stdout.isTTY ? `\x1b[${colors[index % colors.length]}m${text}\x1b[0m` : text;
};
const say = (line) => console.log(`${'cluster'.padEnd(width)} | ${line}`);

/** The URL without its password, for messages. */
function redact(url) {
  const parsed = new URL(url);
  if (parsed.password) {
    parsed.password = '***';
  }
  return parsed.toString();
}

/** Creates the database when it does not exist yet; exits with a message when PostgreSQL is away. */
async function ensureDatabase() {
  const tryConnect = async (url) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    await client.connect();
    return client;
  };
  try {
    await (await tryConnect(databaseUrl)).end();
    return;
  } catch (error) {
    // 3D000: the database does not exist; anything else means PostgreSQL itself is not there for us.
    if (error.code !== '3D000') {
      fail(
        `Cannot connect to PostgreSQL at ${redact(databaseUrl)} (${describe(error)}).\n` +
          'Start it, or point DATABASE_URL at one (the parts of a cluster need PostgreSQL; `npm start` runs without).',
      );
    }
  }
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  try {
    const client = await tryConnect(maintenance.toString());
    await client.query(`create database "${name.replaceAll('"', '""')}"`);
    await client.end();
    say(`created database ${name}`);
  } catch (error) {
    fail(`Cannot create the database ${name} at ${redact(databaseUrl)}: ${describe(error)}`);
  }
}

/** Redis must answer: two gateways (and more than one API process) share their state through it. */
async function ensureRedis() {
  const { hostname, port: redisPort } = new URL(redisUrl);
  const isReachable = await new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(redisPort || 6379) });
    socket.setTimeout(3000);
    const answer = (isOpen) => {
      socket.destroy();
      resolve(isOpen);
    };
    socket.on('connect', () => answer(true));
    socket.on('error', () => answer(false));
    socket.on('timeout', () => answer(false));
  });
  if (!isReachable) {
    fail(`Redis is not reachable at ${redact(redisUrl)}: start it, or point REDIS_URL at one.`);
  }
}

function describe(error) {
  return error.message || error.code || String(error);
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** Runs `bytegate <args>` as a child with its lines prefixed; answers the child. */
function run(name, index, args, env) {
  // Straight to node, not npx or npm: their shell in between would not pass on the stop signal. Its own
  // process group (detached), so a terminal's Ctrl-C reaches this script only, which passes it on once:
  // a second SIGINT would make a child skip its drain.
  const child = spawn(process.execPath, [bin, ...args], {
    env: Object.fromEntries(Object.entries({ ...shared, ...env }).filter(([, value]) => value !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        process.stdout.write(`${label(name, index)} | ${line}\n`);
      }
    });
    stream.on('end', () => {
      if (rest) {
        process.stdout.write(`${label(name, index)} | ${rest}\n`);
      }
    });
  }
  // Resolves once its output is drained too, so an exit is reported after the child's last line.
  child.exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return child;
}

await ensureDatabase();
await ensureRedis();

const migrate = await run('migrate', parts.length, ['migrate'], {}).exited;
if (migrate.code !== 0) {
  fail(`bytegate migrate failed (${migrate.signal ?? `exit code ${migrate.code}`}); nothing was started.`);
}

let stopping = false;
let exitCode = 0;
const children = parts.map((part, index) => ({ ...part, child: run(part.name, index, ['start'], part.env) }));

const isRunning = (child) => child.exitCode === null && child.signalCode === null;

function stopAll(signal) {
  for (const { child } of children) {
    if (isRunning(child)) {
      child.kill(signal);
    }
  }
}

for (const { name, child } of children) {
  child.exited.then(({ code, signal }) => {
    if (!stopping) {
      // One part gone leaves the topology broken: stop the others and say so in the exit code.
      say(`${name} exited unexpectedly (${signal ?? `exit code ${code}`}): stopping the others`);
      stopping = true;
      exitCode = 1;
      stopAll('SIGTERM');
      return;
    }
    if (code !== 0) {
      exitCode = 1;
    }
    say(`${name} stopped (${signal ?? `exit code ${code}`})`);
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The first drains every child (docs/processes.md "Shutdown"); a second one makes them exit at once.
    say(stopping ? `${signal} again: stopping at once` : `${signal}: draining every process`);
    stopping = true;
    stopAll(signal);
  });
}
// Should this script end another way (an error), its detached children must not outlive it.
process.on('exit', () => stopAll('SIGTERM'));

/**
 * Waits for a process to be ready (/readyz 200: its database answers, migrations ran, it does not drain;
 * /healthz only says it is alive); false when the child died or it took too long.
 */
async function waitReady(part) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && isRunning(part.child) && !stopping) {
    try {
      const response = await fetch(`http://127.0.0.1:${part.health}/readyz`, {
        signal: AbortSignal.timeout(3000),
      });
      if (response.ok) {
        return true;
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

const healthy = await Promise.all(children.map(waitReady));
if (!stopping) {
  const mark = (index) => (healthy[index] ? 'up  ' : 'DOWN');
  const lines = children.map((part, index) => {
    const env = part.env;
    const what =
      part.name === 'web-api'
        ? `http://localhost:${port} (web app, /api/docs; /healthz /readyz here)`
        : env.ROLES === 'gateway'
          ? `http://localhost:${env.GATEWAY_HTTP_PORT}, socks5://localhost:${env.GATEWAY_SOCKS_PORT}, sticky ${env.GATEWAY_STICKY_PORTS}; health and /metrics on 127.0.0.1:${part.health}`
          : `background jobs; health and /metrics on 127.0.0.1:${part.health}`;
    return `  ${mark(index)} ${part.name.padEnd(width)} pid ${String(part.child.pid).padEnd(7)} ${what}`;
  });
  console.log(
    [
      '',
      `  Bytegate cluster (pid ${process.pid}) on ${redact(databaseUrl)} and ${redact(redisUrl)} (prefix ${shared.REDIS_PREFIX})`,
      ...lines,
      '  PostgreSQL has no exits until you add some: DATABASE_URL=... npx bytegate exits add --help',
      '  Ctrl-C (or SIGTERM to this pid) drains every process; a second one stops them at once.',
      '',
    ].join('\n'),
  );
}

await Promise.all(children.map(({ child }) => child.exited));
process.exitCode = exitCode;
