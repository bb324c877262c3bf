import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { createGateway, type Gateway } from '../gateway.ts';
import { type Exit, InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { type CountingRelay, countingRelay } from '../testing/sockets.ts';

// The real-client matrix's world: a real gateway (auth, thread limits, targeting and metering on) with
// one plan, origins on loopback (HTTP, HTTPS with a test certificate clients are told to trust, and a
// WebSocket echo), and a counting relay in front of each gateway port, so the bytes a client put on the
// wire are measured outside the gateway and held against what the gateway billed.

/** The paths through the gateway a client may take. */
export type ClientPath =
  | 'http forward'
  | 'http via CONNECT'
  | 'https via CONNECT'
  | 'socks5'
  | 'ws forward'
  | 'ws absolute-form'
  | 'ws via CONNECT'
  | 'ws via socks5';

export interface MatrixEnv {
  login: string;
  password: string;
  /** Where clients send HTTP proxy traffic (the relay in front of the gateway's HTTP port). */
  httpProxy: { host: string; port: number };
  socksProxy: { host: string; port: number };
  /** `http://127.0.0.1:port`, `https://127.0.0.1:port`, `ws://127.0.0.1:port`, no trailing slash. */
  httpOrigin: string;
  httpsOrigin: string;
  wsOrigin: string;
  /** PEM file of the certificate authority the HTTPS origin's certificate is checked against. */
  caFile: string;
}

/** What every HTTP(S) request of the matrix asks for, and the exact body it must get back. */
export const REQUEST_PATH = '/matrix?size=20000';
export const expectedBody = (scheme: 'http' | 'https') => `${scheme} origin: ${'x'.repeat(20_000)}`;
/** A WebSocket client sends this and must receive it in upper case. */
export const WS_MESSAGE = 'bytegate matrix';

const caFile = fileURLToPath(new URL('../../../../docs-tests/testing/tls/localhost.crt', import.meta.url));
const keyFile = fileURLToPath(new URL('../../../../docs-tests/testing/tls/localhost.key', import.meta.url));

const plan: PlanAccess = {
  planId: 'plan-clients',
  login: 'bgclients01',
  password: 'ClientsPass123',
  poolType: 'datacenter',
  threadLimit: 50,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};

function answer(scheme: 'http' | 'https') {
  return (request: IncomingMessage, response: ServerResponse) => {
    const size = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('size') ?? 0);
    response.setHeader('content-type', 'text/plain');
    response.end(`${scheme} origin: ${'x'.repeat(size)}`);
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export interface Matrix {
  env: MatrixEnv;
  /**
   * Runs one client and answers what it printed (or returned), with the bytes its connections carried
   * through the relays and the bytes the gateway billed for them, once every connection has closed.
   */
  measure(
    run: (env: MatrixEnv) => Promise<string>,
  ): Promise<{ output: string; wire: number; billed: number }>;
  close(): Promise<void>;
}

export async function startMatrix(): Promise<Matrix> {
  const http = createServer(answer('http'));
  const tls = createTlsServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, answer('https'));
  const ws = createServer();
  new WebSocketServer({ server: ws }).on('connection', (socket) =>
    socket.on('message', (data) => socket.send(data.toString().toUpperCase())),
  );
  const ports = { http: await listen(http), https: await listen(tls), ws: await listen(ws) };
  const exit: Exit = {
    id: 'dc-1',
    kind: 'direct',
    poolType: 'datacenter',
    country: 'US',
    isRisky: false,
    localAddress: '127.0.0.2',
  };
  // The plan allowlists the relays' address too, for a client that comes in without credentials (Chromium).
  const store = new InMemoryGatewayStore().addPlan(plan, ['127.0.0.1']).addExit(exit);
  const gateway: Gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    socksPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([ports.http, ports.https, ports.ws]),
  });
  const listening = await gateway.listen();
  const relays: CountingRelay[] = [
    await countingRelay(listening.httpPort),
    await countingRelay(listening.socksPort as number),
  ];
  const [httpRelay, socksRelay] = relays as [CountingRelay, CountingRelay];
  const env: MatrixEnv = {
    login: plan.login,
    password: plan.password,
    httpProxy: { host: '127.0.0.1', port: httpRelay.port },
    socksProxy: { host: '127.0.0.1', port: socksRelay.port },
    httpOrigin: `http://127.0.0.1:${ports.http}`,
    httpsOrigin: `https://127.0.0.1:${ports.https}`,
    wsOrigin: `ws://127.0.0.1:${ports.ws}`,
    caFile,
  };
  const carried = () => relays.reduce((sum, relay) => sum + relay.bytes(), 0);
  /** Every relayed connection closed, and the gateway's side of each too (it is metered as it closes). */
  async function settle(): Promise<void> {
    await Promise.all(relays.map((relay) => relay.idle()));
    const deadline = Date.now() + 5000;
    while (gateway.connections().open > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  return {
    env,
    async measure(run) {
      // Whatever an earlier client left open (a failed one, say) is closed and counted before this one.
      await settle();
      gateway.meter.drain();
      const before = carried();
      const output = await run(env);
      await settle();
      const usage = gateway.meter.drain().get(plan.planId);
      return { output, wire: carried() - before, billed: usage?.bytes ?? 0 };
    },
    async close() {
      await gateway.close();
      await Promise.all(relays.map((relay) => relay.close()));
      ws.closeAllConnections();
      for (const server of [http, tls, ws]) {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** Runs a program; answers its stdout, or rejects with its stderr. The proxy variables are left out. */
export function runProgram(
  file: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
  cwd = fileURLToPath(new URL('../..', import.meta.url)),
): Promise<string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(https?|all|no|ws|wss)_proxy$/i.test(name)),
  );
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env: { ...env, ...extraEnv }, timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} failed: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}
