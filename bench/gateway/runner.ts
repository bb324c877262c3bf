// A proxy under test, in its own process so its RSS and CPU are its own. Prints {"httpPort","socksPort"}
// as one JSON line once it listens. Modes:
//   bytegate     the Bytegate gateway (auth, limits, metering, policy, exits) over an in-memory store.
//   bare         the gateway's relay without admission, policy or metering: what those cost is the
//                difference. Written like packages/gateway/src/listeners (http-proxy.ts handleConnect:
//                'connect' event, the gateway's own connectTarget + relay; forward.ts: a keep-alive http.Agent to targets,
//                hop-by-hop headers dropped both ways). Keep it in step when the gateway's relay changes.
//   bare-fresh   what-if: `bare` with a new upstream socket per forward request (the gateway before
//                forward.ts pooled them).
//   bare-undici  what-if: `bare` sending forward requests through undici's dispatcher instead of
//                http.request + http.Agent.
//   proxy-chain  the proxy-chain npm package (installed into bench/gateway/.cache by the bench).
// Usage: runner.ts <mode> <open ports, comma separated> [proxy-chain node_modules dir]
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
  type ServerResponse,
} from 'node:http';
import { createRequire } from 'node:module';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { connectTarget, createGateway, InMemoryGatewayStore, relay } from '@bytegate/gateway';
import { type Dispatcher, Agent as UndiciAgent } from 'undici';
import { BENCH_LOGIN, BENCH_PASSWORD } from './config.ts';

interface Ports {
  httpPort: number;
  socksPort?: number | undefined;
}

async function runBytegate(openPorts: ReadonlySet<number>): Promise<Ports> {
  const store = new InMemoryGatewayStore()
    .addPlan({
      planId: 'bench',
      login: BENCH_LOGIN,
      password: BENCH_PASSWORD,
      poolType: 'datacenter',
      threadLimit: 1_000_000,
      trafficLeftBytes: Number.MAX_SAFE_INTEGER,
      isActive: true,
    })
    .addExit({ id: 'local', kind: 'direct', poolType: 'datacenter', country: 'US', isRisky: false });
  const gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts,
  });
  const ports = await gateway.listen();
  // Drain the meter like the server's usage flush does, so pending usage never grows without bound.
  setInterval(() => gateway.meter.drain(), 1000).unref();
  return { httpPort: ports.httpPort, socksPort: ports.socksPort };
}

// Hop-by-hop and proxy headers never go through (the gateway's DROPPED_HEADERS).
const DROPPED_HEADERS = new Set([
  'proxy-authorization',
  'proxy-connection',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const CONNECT_ESTABLISHED = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n');
const BAD_GATEWAY = 'HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

function openUpstream(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectTarget({ host, port });
    socket.setNoDelay(true);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

async function bareConnect(request: IncomingMessage, client: Socket, head: Buffer) {
  client.on('error', () => client.destroy());
  const match = /^([^:/\s]+):(\d{1,5})$/.exec(request.url ?? '');
  try {
    const upstream = await openUpstream(match?.[1] ?? '', Number(match?.[2]));
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    if (head.length > 0) {
      upstream.write(head);
    }
    client.write(CONNECT_ESTABLISHED);
    relay(client, upstream);
  } catch {
    client.end(BAD_GATEWAY);
  }
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function forwardHeaders(request: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !DROPPED_HEADERS.has(name)) {
      headers[name] = value;
    }
  }
  return headers;
}

/** A forward request the way packages/gateway/src/listeners/forward.ts sends one through a direct exit. */
function bareForward(request: IncomingMessage, response: ServerResponse, agent: Agent | undefined) {
  const client = request.socket;
  try {
    const url = new URL(request.url ?? '');
    const options: RequestOptions = {
      host: url.hostname,
      port: Number(url.port || 80),
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: forwardHeaders(request),
      setHost: false,
    };
    if (agent) {
      options.agent = agent;
    } else {
      options.createConnection = () => {
        const socket = connect({ host: url.hostname, port: Number(url.port || 80) });
        socket.setNoDelay(true);
        return socket;
      };
    }
    const outgoing = httpRequest(options);
    outgoing.on('response', (incoming) => {
      const rawHeaders: string[] = [];
      for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
        const name = incoming.rawHeaders[i] ?? '';
        if (!DROPPED_HEADERS.has(name.toLowerCase())) {
          rawHeaders.push(name, incoming.rawHeaders[i + 1] ?? '');
        }
      }
      response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, rawHeaders);
      incoming.pipe(response);
    });
    outgoing.on('error', () => {
      if (response.headersSent) {
        client.destroy();
      } else {
        client.end(BAD_GATEWAY);
      }
    });
    if (hasBody(request)) {
      request.pipe(outgoing);
    } else {
      outgoing.end();
    }
  } catch {
    client.end(BAD_GATEWAY);
  }
}

/** The same forward request through undici's dispatcher (a keep-alive pool per target) instead. */
function undiciForward(request: IncomingMessage, response: ServerResponse, agent: UndiciAgent) {
  const client = request.socket;
  try {
    const url = new URL(request.url ?? '');
    agent.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: (request.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: forwardHeaders(request),
        body: hasBody(request) ? request : null,
      },
      {
        onRequestStart() {},
        onResponseStart(controller, statusCode, headers, statusMessage) {
          const kept: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(headers)) {
            if (value !== undefined && !DROPPED_HEADERS.has(name)) {
              kept[name] = value;
            }
          }
          response.writeHead(statusCode, statusMessage, kept);
          response.on('drain', () => controller.resume());
        },
        onResponseData(controller, chunk) {
          if (!response.write(chunk)) {
            controller.pause();
          }
        },
        onResponseEnd() {
          response.end();
        },
        onResponseError() {
          if (response.headersSent) {
            client.destroy();
          } else {
            client.end(BAD_GATEWAY);
          }
        },
      },
    );
  } catch {
    client.end(BAD_GATEWAY);
  }
}

async function runBare(forward: 'pooled' | 'fresh' | 'undici'): Promise<Ports> {
  // The gateway's createForwardAgent(), with the socket option it sets on every upstream connection.
  const agent =
    forward === 'pooled'
      ? new Agent({ keepAlive: true, maxFreeSockets: 1024, scheduling: 'lifo', timeout: 60_000 })
      : undefined;
  if (agent) {
    const createConnection = agent.createConnection.bind(agent);
    agent.createConnection = (options, callback) => {
      const socket = createConnection(options, callback) as Socket;
      socket.setNoDelay(true);
      return socket;
    };
  }
  const undici =
    forward === 'undici' ? new UndiciAgent({ keepAliveTimeout: 60_000, connections: 1024 }) : undefined;
  const server = createServer({ keepAlive: true });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    void bareConnect(request, client, head);
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (undici) {
      undiciForward(request, response, undici);
    } else {
      bareForward(request, response, agent);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { httpPort: (server.address() as AddressInfo).port };
}

async function runProxyChain(modulesDir: string): Promise<Ports> {
  const require = createRequire(`${modulesDir}/`);
  const ProxyChain = require('proxy-chain') as {
    Server: new (options: {
      port: number;
      host: string;
      verbose: boolean;
    }) => {
      listen(): Promise<void>;
      port: number;
    };
  };
  const server = new ProxyChain.Server({ port: 0, host: '127.0.0.1', verbose: false });
  await server.listen();
  return { httpPort: server.port };
}

// A clean exit on SIGTERM, so `node --cpu-prof` writes its profile (profile.ts relies on it).
process.once('SIGTERM', () => process.exit(0));

const [mode = 'bytegate', openPortsText = '', modulesDir = ''] = process.argv.slice(2);
const openPorts = new Set(openPortsText.split(',').filter(Boolean).map(Number));
const ports =
  mode === 'bare'
    ? await runBare('pooled')
    : mode === 'bare-fresh'
      ? await runBare('fresh')
      : mode === 'bare-undici'
        ? await runBare('undici')
        : mode === 'proxy-chain'
          ? await runProxyChain(modulesDir)
          : mode === 'bytegate'
            ? await runBytegate(openPorts)
            : undefined;
if (!ports) {
  throw new Error(`unknown mode ${mode}`);
}
process.stdout.write(`${JSON.stringify(ports)}\n`);
