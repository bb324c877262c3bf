// One gateway process of bench/cluster: runGateway over the bench's database, sharing its state through
// Redis when a Redis URL is given (as `bytegate start` does with REDIS_URL), in-process otherwise.
// Counts the Redis commands this process sends (ioredis' sendCommand, by command and key kind, with how
// long each took to answer) and serves them, with the engine's counters and the fleet's state, as JSON
// on a stats port. Prints {"httpPort","statsPort"} as one JSON line once it listens; SIGTERM stops it
// the way the server does (the fleet's lease is given back, usage flushed).
// Usage: gateway.ts <database url> <open ports, comma separated> [redis url] [redis prefix]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb } from '@bytegate/db';
import { Redis } from 'ioredis';
import { loadConfig } from '../../apps/server/src/config.ts';
import { runGateway } from '../../apps/server/src/gateway/run-gateway.ts';

export interface CommandFigures {
  calls: number;
  /** Time from sendCommand to its answer, summed (ms). */
  totalMs: number;
  maxMs: number;
}

export interface GatewayReading {
  /** Redis commands this process sent, by "command key-kind" (e.g. "evalsha threads"). */
  commands: Record<string, CommandFigures>;
  /** Of those, sent inside a pipeline (an explicit one, or ioredis' auto-pipelining of one tick). */
  pipelined: number;
  /** Pipelines sent: each is one write for all its commands. */
  batches: number;
  sharedState: { isDegraded: boolean; fallbacks: number } | null;
  refusals: Record<string, number>;
}

const [databaseUrl = '', openPortsText = '', redisUrl = '', redisPrefix = 'bytegate:'] =
  process.argv.slice(2);

const commands = new Map<string, CommandFigures>();
let pipelined = 0;
let batches = 0;
const seenBatches = new WeakSet<object>();
/** The part of a key after the prefix, up to its first colon: threads, traffic, session, gw. */
const keyKind = (key: unknown) =>
  typeof key === 'string' && key.startsWith(redisPrefix)
    ? (key.slice(redisPrefix.length).split(':')[0] ?? '')
    : '';

function label(name: string, args: unknown[]): string {
  if (name === 'evalsha' || name === 'eval') {
    const kind = keyKind(args[2]);
    // The traffic scripts differ by their arguments: a draw has 6, a sync or settle 3.
    const what = kind === 'traffic' ? (args.length - 3 === 6 ? ' draw' : ' sync/settle') : '';
    return `${name} ${kind}${what}`;
  }
  return `${name} ${keyKind(args[0])}`.trim();
}

type SendCommand = Redis['sendCommand'];
const original: SendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function counted(this: Redis, ...params: Parameters<SendCommand>) {
  const [command, stream] = params;
  const name = label(command.name, command.args);
  const started = performance.now();
  // A pipeline hands every one of its commands the same stand-in stream.
  if (stream && !seenBatches.has(stream)) {
    seenBatches.add(stream);
    batches += 1;
  }
  const record = () => {
    if (stream) {
      pipelined += 1;
    }
    const ms = performance.now() - started;
    const figures = commands.get(name) ?? { calls: 0, totalMs: 0, maxMs: 0 };
    figures.calls += 1;
    figures.totalMs += ms;
    figures.maxMs = Math.max(figures.maxMs, ms);
    commands.set(name, figures);
  };
  command.promise.then(record, record);
  return original.apply(this, params);
};

const config = loadConfig({
  LOG_LEVEL: 'silent',
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl,
  ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix } : {}),
});
config.gateway.allowPrivateTargets = true;

const write = (level: string) => (first: unknown, message?: unknown) => {
  const error = (first as { err?: unknown } | null)?.err;
  const text = typeof first === 'string' ? first : String(message ?? '');
  process.stderr.write(`${level}: ${text}${error instanceof Error ? `: ${error.message}` : ''}\n`);
};
const log = { info: write('info'), warn: write('warn'), error: write('error') };

const database = await createDb({ databaseUrl, maxConnections: 5 });
const gateway = await runGateway(config, database.db, log, {
  httpPort: 0,
  socksPort: null,
  stickyPorts: null,
  host: '127.0.0.1',
  openPorts: new Set(openPortsText.split(',').filter(Boolean).map(Number)),
});

const stats = createServer((_request, response) => {
  const reading: GatewayReading = {
    commands: Object.fromEntries(commands),
    pipelined,
    batches,
    sharedState: gateway.sharedState(),
    refusals: Object.fromEntries(Object.entries(gateway.stats().refusals).filter(([, count]) => count > 0)),
  };
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(reading));
});
await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));

process.once('SIGTERM', () => {
  const forced = setTimeout(() => process.exit(1), 8000);
  forced.unref();
  void (async () => {
    await gateway.stop();
    await database.close();
    stats.close();
    process.exit(0);
  })();
});

process.stdout.write(
  `${JSON.stringify({ httpPort: gateway.httpPort, statsPort: (stats.address() as AddressInfo).port })}\n`,
);
