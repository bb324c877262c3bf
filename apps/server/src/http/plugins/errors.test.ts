// A client that aborts its request body and a database that goes away both surface as ECONNRESET: the
// first is the client's doing and must not be logged, answered or counted as a database outage.
import { connect } from 'node:net';
import { createDb, type DbHandle } from '@bytegate/db';
import { createTestDb, testDatabaseKinds } from '@bytegate/db/testing';
import { freePort } from '@bytegate/gateway/testing';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { startTcpRelay, type TcpRelay } from '../../testing/tcp-relay.ts';
import { buildApp } from '../app.ts';

interface LogLine {
  level: number;
  msg: string;
  route?: string;
  reason?: string;
}

/** The real app on `db`, listening, with its log lines kept. */
async function startLoggedApp(db: DbHandle['db']) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const lines: LogLine[] = [];
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'info', PUBLIC_URL: url, HOST: '127.0.0.1', PORT: String(port) }),
    db,
    webDistDir: '/nonexistent',
    logStream: { write: (line) => lines.push(JSON.parse(line) as LogLine) },
  });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, port, url, lines };
}

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(testDatabaseKinds())('a request whose body the client aborts, on %s', (kind) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  it('is logged as the client going away, never as a database outage', async () => {
    const database = await createTestDb(kind);
    cleanups.push(() => database.close());
    const server = await startLoggedApp(database.db);
    cleanups.push(() => server.app.close());

    // Half a sign-in body, then the socket reset (RST): the server's request stream fails mid-body.
    const socket = connect(server.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 200\r\n\r\n{"email":"ann@example.com","pass',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.resetAndDestroy();

    const aborted = await waitFor(
      () => server.lines.find((line) => /aborted|database unavailable|unhandled error/.test(line.msg)),
      'the abort to be logged',
    );
    expect(aborted).toMatchObject({
      level: 30,
      msg: 'request aborted by the client',
      route: '/api/auth/login',
    });
    expect(server.lines.filter((line) => line.msg === 'database unavailable')).toEqual([]);
    // The server carries on and the database answers.
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'a database outage mid-request (PostgreSQL behind a relay)',
  () => {
    let relay: TcpRelay | undefined;
    let relayed: DbHandle | undefined;
    let direct: (DbHandle & { databaseUrl?: string }) | undefined;
    let app: FastifyInstance | undefined;
    afterEach(async () => {
      await app?.close();
      await relayed?.close().catch(() => undefined);
      await relay?.close();
      await direct?.close();
    });

    it('is still a database outage: 503 DATABASE_UNAVAILABLE, logged as one', async () => {
      direct = await createTestDb('postgres');
      const url = new URL(direct.databaseUrl as string);
      relay = await startTcpRelay({ host: url.hostname, port: Number(url.port || 5432) });
      url.host = `127.0.0.1:${relay.port}`;
      relayed = await createDb({ databaseUrl: url.toString(), connectTimeoutMs: 1500, queryTimeoutMs: 2500 });
      const server = await startLoggedApp(relayed.db);
      app = server.app;

      // The sign-in's query reaches PostgreSQL, then every connection is reset (ECONNRESET) before it answers.
      const sprung = relay.pauseAfterClientSends(/"users"/);
      const answer = fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ann@example.com', password: 'a password of some length' }),
      });
      await sprung;
      relay.cut();
      const response = await answer;
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      expect(server.lines.find((line) => line.msg === 'database unavailable')).toMatchObject({
        level: 40,
        route: '/api/auth/login',
      });
      expect(server.lines.filter((line) => line.msg === 'request aborted by the client')).toEqual([]);
    });
  },
);
