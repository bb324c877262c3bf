import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createExits } from '@bytegate/db/queries';
import { createTestDb } from '@bytegate/db/testing';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { loadConfig } from '../config.ts';
import { publishGatewayChangeOnce } from '../gateway/fleet/gateway-changes.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { type BytegateProcess, startBytegate } from './bytegate-process.ts';
import { LOOPBACK_EXITS, startOrigin, within } from './gateway-fixture.ts';
import { forwardGet } from './proxy-clients.ts';
import { startTcpRelay, type TcpRelay } from './tcp-relay.ts';

/**
 * A fleet as production runs it, each part a separate `bytegate start` process: an API process, two
 * gateways and a jobs process on one fresh PostgreSQL database and one Redis reached through a relay the
 * test controls; the loopback exits, an origin, and a customer whose datacenter plan (bought through the
 * API process) is held to 5 threads and known to both gateways.
 */
export interface Fleet {
  db: Awaited<ReturnType<typeof createTestDb>>['db'];
  databaseUrl: string;
  relay: TcpRelay;
  originPort: number;
  /** What every process of this fleet is started with (database, Redis through the relay, prefix). */
  env: Record<string, string>;
  api: BytegateProcess;
  gateways: [BytegateProcess, BytegateProcess];
  jobs: BytegateProcess;
  customer: { token: string; email: string; planId: string; login: string; auth: string };
  /** Another process of this fleet, stopped with the others at the end. */
  start(name: string, env: Record<string, string>): Promise<BytegateProcess>;
  /** The plan's traffic used as the database holds it. */
  used(): Promise<number>;
  /** The plan's total as the fleet shares it in Redis (every draw is made against it). */
  sharedTotal(): Promise<number>;
  /** The plan's whole hash in Redis (total, used, each member's figure): for a failure's message. */
  sharedFigures(): Promise<Record<string, string>>;
  /** Sets the plan's traffic left in the database, telling no one; answers its new total. */
  writePlanLeft(bytes: number): Promise<number>;
  /**
   * Sets the plan's traffic left and tells the gateways as the API tells of its writes; answers once the
   * new total is in force, i.e. the fleet's figures in Redis hold it, whenever the gateways got to it.
   */
  setPlanLeft(bytes: number): Promise<void>;
  /** A request to the API process as the customer. */
  apiCall(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startFleet(redisUrl: string): Promise<Fleet> {
  const handle = await createTestDb('postgres');
  const databaseUrl = handle.databaseUrl ?? '';
  const redisTarget = new URL(redisUrl);
  const relay = await startTcpRelay({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
  const origin: { server: Server; port: number } = await startOrigin();
  await createExits(handle.db, { exits: LOOPBACK_EXITS });
  const prefix = `fleet-test-${randomUUID().slice(0, 8)}:`;
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${relay.port}`,
    REDIS_PREFIX: prefix,
    GATEWAY_OPEN_PORTS: String(origin.port),
    GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
  };
  const everyone: BytegateProcess[] = [];
  const start = async (name: string, extra: Record<string, string>) => {
    const started = await startBytegate(name, { ...env, ...extra });
    everyone.push(started);
    return started;
  };
  const starting = await Promise.allSettled([
    start('api', { ROLES: 'web,api' }),
    start('gateway 1', { ROLES: 'gateway' }),
    start('gateway 2', { ROLES: 'gateway' }),
    start('jobs', { ROLES: 'jobs' }),
  ]);
  const failed = starting.find((result) => result.status === 'rejected');
  if (failed) {
    // The ones that did start would outlive the test (and load every later one on the machine).
    for (const one of everyone) {
      one.child.kill('SIGKILL');
    }
    throw failed.reason;
  }
  const [api, gateway1, gateway2, jobs] = starting.map(
    (result) => (result as PromiseFulfilledResult<BytegateProcess>).value,
  ) as [BytegateProcess, BytegateProcess, BytegateProcess, BytegateProcess];
  let token = '';
  const apiCall = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${api.ports.http}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const email = `fleet.${Date.now()}@example.com`;
  const signup = await apiCall('POST', '/api/auth/signup', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    password: 'correct horse battery',
  });
  token = String(signup.body.token);
  await adjustBalance(
    { db: handle.db, config: loadConfig({ DATABASE_URL: databaseUrl }) },
    { email, amountCents: 10_00, reason: 'test credit' },
  );
  const bought = await apiCall('POST', '/api/subuser/create', {
    pool_type: 'datacenter',
    default_pool_parameters: { quantity: 5 },
  });
  const plan = bought.body.plan as { subUserId: string; login: string; password: string };
  const auth = `${plan.login}:${plan.password}`;
  await handle.db.execute(
    sql`update plans set thread_limit = 5, updated_at = now() where id = ${plan.subUserId}`,
  );
  // Written behind the API's back: no change is published, the gateways' periodic refresh reads it.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  for (const gateway of [gateway1, gateway2]) {
    await within(
      5000,
      async () =>
        (await forwardGet(gateway.ports.gateway, auth, `http://127.0.0.1:${origin.port}/`)).status === 200,
    );
  }

  // Read straight from Redis, not through the relay the gateways use.
  const direct = new Redis(redisUrl);
  const sharedTotal = async () => Number(await direct.hget(`${prefix}traffic:${plan.subUserId}`, 'total'));
  const writePlanLeft = async (bytes: number) => {
    const updated = (await handle.db.execute(
      sql`update plans set traffic_total_bytes = traffic_used_bytes + ${bytes}, updated_at = now() where id = ${plan.subUserId} returning traffic_total_bytes::text as total`,
    )) as unknown as { rows: Array<{ total: string }> };
    return Number(updated.rows[0]?.total);
  };

  return {
    db: handle.db,
    databaseUrl,
    relay,
    originPort: origin.port,
    env,
    api,
    gateways: [gateway1, gateway2],
    jobs,
    customer: { token, email, planId: plan.subUserId, login: plan.login, auth },
    start,
    async used() {
      const result = (await handle.db.execute(
        sql`select traffic_used_bytes as used from plans where id = ${plan.subUserId}`,
      )) as unknown as { rows: Array<{ used: string }> };
      return Number(result.rows[0]?.used);
    },
    sharedTotal,
    sharedFigures: () => direct.hgetall(`${prefix}traffic:${plan.subUserId}`),
    writePlanLeft,
    async setPlanLeft(bytes) {
      const total = await writePlanLeft(bytes);
      await publishGatewayChangeOnce(redisUrl, prefix, 'fleet test: plan traffic');
      await within(10_000, async () => (await sharedTotal()) === total);
    },
    apiCall,
    async close() {
      for (const one of everyone) {
        one.child.kill('SIGKILL');
      }
      await new Promise((resolve) => origin.server.close(resolve));
      await relay.close();
      const keys = await direct.keys(`${prefix}*`);
      if (keys.length > 0) {
        await direct.del(...keys);
      }
      direct.disconnect();
      await handle.close();
    },
  };
}
