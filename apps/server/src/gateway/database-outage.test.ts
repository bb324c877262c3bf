// Fault injection with real PostgreSQL: the database goes away behind a TCP relay the test controls,
// while customers keep sending traffic through the gateway. Nothing may be lost or billed twice, the
// API must say it is briefly unavailable, and everything must recover without a restart.
import { createServer, type Server, connect as tcpConnect } from 'node:net';
import { createDb, type DbHandle } from '@bytegate/db';
import { createExits } from '@bytegate/db/queries';
import { createTestDb } from '@bytegate/db/testing';
import { freePort } from '@bytegate/gateway/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../config.ts';
import { buildApp } from '../http/app.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { startTcpRelay, type TcpRelay } from '../testing/tcp-relay.ts';
import { type RunningGateway, runGateway } from './run-gateway.ts';

const OUTAGE_MS = Number(process.env.OUTAGE_MS ?? 30_000);
const quietLog = { error: () => undefined, warn: () => undefined, info: () => undefined };

interface Customer {
  token: string;
  email: string;
  planId: string;
  login: string;
  password: string;
  /** Bytes this customer's client sockets carried, both directions, counted by the client. */
  countedBytes: number;
  ok: number;
  failed: number;
}

describe.runIf(process.env.TEST_DATABASE_URL)('a database outage, with PostgreSQL behind a relay', () => {
  let direct: DbHandle & { databaseUrl?: string };
  let relay: TcpRelay;
  let relayed: DbHandle;
  let config: Config;
  let app: FastifyInstance;
  let apiUrl: string;
  let gateway: RunningGateway;
  let origin: Server;
  let originPort: number;

  beforeAll(async () => {
    direct = await createTestDb('postgres');
    const url = new URL(direct.databaseUrl as string);
    relay = await startTcpRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${relay.port}`;
    relayed = await createDb({
      databaseUrl: url.toString(),
      maxConnections: 5,
      connectTimeoutMs: 1500,
      queryTimeoutMs: 2500,
    });

    // The origin answers `GET /?bytes=N` with N bytes, and closes.
    origin = createServer((socket) => {
      socket.once('data', (head) => {
        const size = Number(/bytes=(\d+)/.exec(head.toString('latin1'))?.[1] ?? 0);
        socket.end(
          `HTTP/1.1 200 OK\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n${'b'.repeat(size)}`,
        );
      });
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originPort = (origin.address() as { port: number }).port;

    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: apiUrl, HOST: '127.0.0.1', PORT: String(port) });
    config.gateway.allowPrivateTargets = true;
    config.rateLimits.signup = { max: 1000, windowMs: 60_000 };
    app = await buildApp({ config, db: relayed.db, logger: false, webDistDir: '/nonexistent' });
    await app.listen({ port, host: '127.0.0.1' });
    await createExits(direct.db, {
      exits: [
        {
          name: 'loopback',
          kind: 'direct',
          poolType: 'datacenter',
          localAddress: '127.0.0.2',
          country: 'US',
        },
      ],
    });
    gateway = await runGateway(config, relayed.db, quietLog, {
      httpPort: 0,
      socksPort: null,
      stickyPorts: null,
      host: '127.0.0.1',
      openPorts: new Set([originPort]),
    });
  }, 60_000);
  afterAll(async () => {
    relay?.resume();
    await gateway?.stop();
    await app?.close();
    await relayed?.close();
    await relay?.close();
    await direct?.close();
    await new Promise((resolve) => origin?.close(resolve));
  });

  async function api<T = Record<string, unknown>>(
    method: string,
    path: string,
    token?: string,
    body?: unknown,
  ) {
    const started = Date.now();
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as T,
      retryAfter: response.headers.get('retry-after'),
      ms: Date.now() - started,
    };
  }

  async function newCustomer(): Promise<Customer> {
    const email = `outage.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
    const signup = await api<{ token: string }>('POST', '/api/auth/signup', undefined, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      password: 'correct horse battery',
    });
    await adjustBalance({ db: direct.db, config }, { email, amountCents: 10_00, reason: 'outage test' });
    const bought = await api<{ plan: { subUserId: string; login: string; password: string } }>(
      'POST',
      '/api/subuser/create',
      signup.body.token,
      { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    );
    const { subUserId, login, password } = bought.body.plan;
    return {
      token: signup.body.token,
      email,
      planId: subUserId,
      login,
      password,
      countedBytes: 0,
      ok: 0,
      failed: 0,
    };
  }

  /** One forward request on a fresh connection; counts what crossed the client socket when it succeeds. */
  function request(customer: Customer, bytes: number): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = tcpConnect(gateway.httpPort, '127.0.0.1');
      const auth = Buffer.from(`${customer.login}:${customer.password}`).toString('base64');
      let head = '';
      socket.on('connect', () => {
        socket.write(
          `GET http://127.0.0.1:${originPort}/?bytes=${bytes} HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\nProxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`,
        );
      });
      socket.on('data', (chunk: Buffer) => {
        if (head.length < 16) {
          head += chunk.toString('latin1', 0, 16);
        }
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (head.startsWith('HTTP/1.1 200')) {
          customer.countedBytes += socket.bytesRead + socket.bytesWritten;
          customer.ok += 1;
          resolve(true);
        } else {
          customer.failed += 1;
          resolve(false);
        }
      });
    });
  }

  /** Sends requests of varied sizes one after another, about a hundred a second, until `until` says stop. */
  async function keepSending(customer: Customer, until: () => boolean): Promise<void> {
    for (let i = 0; !until(); i++) {
      await request(customer, 10_000 + ((i * 7919) % 90_000));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function billedBytes(customer: Customer): Promise<number> {
    const result = await direct.db.execute(
      `select traffic_used_bytes::text as used from plans where id = '${customer.planId}'`,
    );
    return Number((result as unknown as { rows: Array<{ used: string }> }).rows[0]?.used);
  }

  /** Waits until the gateway has written everything it metered (flushes run every second). */
  async function settle(customers: Customer[]): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const billed = await Promise.all(customers.map(billedBytes));
      if (billed.every((bytes, i) => bytes === customers[i]?.countedBytes) || Date.now() > deadline) {
        return;
      }
    }
  }

  it(
    `keeps serving for ${OUTAGE_MS / 1000} s without the database, answers the API with 503, and bills every byte once`,
    async () => {
      const steady = await newCustomer();
      const latecomer = await newCustomer();
      // The gateway learns of both plans within a second; only `steady` sends traffic before the outage.
      let isDone = false;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const traffic = keepSending(steady, () => isDone);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const before = { ok: steady.ok, failed: steady.failed, bytes: steady.countedBytes };

      relay.pause();
      const outageStarted = Date.now();
      // A plan the gateway knows but that never connected before signs in during the outage.
      const latecomerTraffic = keepSending(latecomer, () => Date.now() - outageStarted > OUTAGE_MS - 3000);
      const meanwhile = await api('GET', '/api/auth/me', steady.token);
      expect(meanwhile.status).toBe(503);
      expect(meanwhile.body).toEqual({
        error: 'The service is briefly unavailable. Please try again in a few seconds.',
        code: 'DATABASE_UNAVAILABLE',
      });
      expect(meanwhile.retryAfter).toBe('5');
      expect(meanwhile.ms).toBeLessThan(6000);
      await latecomerTraffic;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - outageStarted))),
      );
      const during = {
        ok: steady.ok - before.ok + latecomer.ok,
        failed: steady.failed - before.failed + latecomer.failed,
        bytes: steady.countedBytes - before.bytes + latecomer.countedBytes,
      };
      relay.resume();

      // The API recovers by itself.
      const recoveredAt = Date.now();
      for (;;) {
        const answer = await api('GET', '/api/auth/me', steady.token);
        if (answer.status === 200) {
          break;
        }
        expect(Date.now() - recoveredAt).toBeLessThan(15_000);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      isDone = true;
      await traffic;
      await settle([steady, latecomer]);

      const billed = { steady: await billedBytes(steady), latecomer: await billedBytes(latecomer) };
      console.log(
        `outage of ${OUTAGE_MS / 1000} s: ${during.ok} requests served and ${during.failed} failed during it, ` +
          `${during.bytes} bytes carried during it; in all ${steady.countedBytes + latecomer.countedBytes} bytes ` +
          `counted by the clients and ${billed.steady + billed.latecomer} billed`,
      );
      expect(during.failed).toBe(0);
      expect(latecomer.ok).toBeGreaterThan(0);
      expect(during.ok).toBeGreaterThan(20);
      expect(billed).toEqual({ steady: steady.countedBytes, latecomer: latecomer.countedBytes });
    },
    OUTAGE_MS + 90_000,
  );

  it('bills a flush once when the database committed it but its answer was lost', async () => {
    const customer = await newCustomer();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (let i = 0; i < 5; i++) {
      await request(customer, 50_000);
    }
    // The next COMMIT reaches PostgreSQL, which applies it; its answer never comes back.
    const trap = relay.pauseAfterClientSends(/commit/i);
    await trap;
    for (let i = 0; i < 5; i++) {
      await request(customer, 30_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 4000));
    relay.resume();
    await settle([customer]);
    expect(customer.failed).toBe(0);
    expect(await billedBytes(customer)).toBe(customer.countedBytes);
  }, 60_000);
});
