import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { createExits, type NewExit } from '@bytegate/db/queries';
import type { UsageFlushObserver } from '../gateway/db-gateway-store.ts';
import { type RunningGateway, runGateway } from '../gateway/run-gateway.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { unavailableLiveSource } from '../services/stats/live-source.ts';
import { type ConfigOverrides, createUserViaApi, startTestServer, type TestServer } from './test-server.ts';

export interface GatewayFixture {
  server: TestServer;
  gateway: RunningGateway;
  /** An origin on 127.0.0.1 that answers `from <client address>` (or `?bytes=N` bytes). */
  originUrl: string;
  close(): Promise<void>;
}

/** Two datacenter exits on loopback: US leaves from 127.0.0.2, DE from 127.0.0.3. */
export const LOOPBACK_EXITS = [
  { name: 'US loopback', kind: 'direct', poolType: 'datacenter', localAddress: '127.0.0.2', country: 'US' },
  { name: 'DE loopback', kind: 'direct', poolType: 'datacenter', localAddress: '127.0.0.3', country: 'DE' },
] satisfies NewExit[];

/** An origin on 127.0.0.1 that answers `from <client address>`, or `?bytes=N` bytes. */
export async function startOrigin(): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    const size = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('bytes') ?? 0);
    response.end(size > 0 ? Buffer.alloc(size, 98) : `from ${request.socket.remoteAddress}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * The real app and the real gateway over one fresh database, with two datacenter exits on loopback
 * (US leaves from 127.0.0.2, DE from 127.0.0.3) and an origin server only the gateway may reach.
 */
export async function startGatewayFixture(
  kind: 'pglite' | 'postgres',
  options: { onUsageFlush?: UsageFlushObserver; server?: ConfigOverrides } = {},
): Promise<GatewayFixture> {
  const { server: origin, port: originPort } = await startOrigin();
  // The live view reads the gateway started below, as `bytegate start` wires it.
  let running: RunningGateway | undefined;
  const server = await startTestServer(kind, options.server, {
    liveStats: () => running?.live ?? unavailableLiveSource,
  });
  server.config.gateway.allowPrivateTargets = true;
  await createExits(server.database.db, { exits: LOOPBACK_EXITS });
  const gateway = await runGateway(server.config, server.database.db, console, {
    httpPort: 0,
    socksPort: null,
    stickyPorts: null,
    host: '127.0.0.1',
    openPorts: new Set([originPort]),
    changes: server.gatewayChanges,
    ...(options.onUsageFlush ? { onUsageFlush: options.onUsageFlush } : {}),
  });
  running = gateway;
  return {
    server,
    gateway,
    originUrl: `http://127.0.0.1:${originPort}`,
    async close() {
      await gateway.stop();
      await server.close();
      await new Promise((resolve) => origin.close(resolve));
    },
  };
}

/**
 * A customer with 5 GB of datacenter traffic bought through the API: their session token and account
 * password, and the plan's id and proxy login and password.
 */
export async function buyDatacenterPlan(server: TestServer) {
  const user = await createUserViaApi(server);
  await adjustBalance(
    { db: server.database.db, config: server.config },
    { email: user.email, amountCents: 10_00, reason: 'test credit' },
  );
  const bought = await server.request<{ plan: { subUserId: string; login: string; password: string } }>(
    'POST',
    '/api/subuser/create',
    { token: user.token, body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } } },
  );
  if (bought.status !== 201) {
    throw new Error(`purchase failed with ${bought.status}`);
  }
  const { subUserId, login, password } = bought.body.plan;
  return {
    token: user.token,
    email: user.email,
    accountPassword: user.password,
    planId: subUserId,
    login,
    password,
  };
}

/** Polls until `check` holds; throws after `ms`. Answers how long it took. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) {
      throw new Error(`not within ${ms} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

/** A request through the gateway's forward proxy with `user:password`: its status line and body. */
export function fetchThroughGateway(
  fixture: GatewayFixture,
  credentials: string,
  path: string,
): Promise<{ status: string; body: Buffer }> {
  const url = `${fixture.originUrl}${path}`;
  return new Promise((resolve, reject) => {
    const socket = connect(fixture.gateway.httpPort, '127.0.0.1', () => {
      socket.write(
        `GET ${url} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nConnection: close\r\nProxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n\r\n`,
      );
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const headEnd = all.indexOf('\r\n\r\n');
      resolve({
        status: all.subarray(0, all.indexOf('\r\n')).toString('latin1'),
        body: headEnd === -1 ? Buffer.alloc(0) : all.subarray(headEnd + 4),
      });
    });
  });
}
