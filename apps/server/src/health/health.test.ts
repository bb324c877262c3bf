import { createTestDb, testDatabaseKinds } from '@bytegate/db/testing';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { buildApp } from '../http/app.ts';
import { startTestServer } from '../testing/test-server.ts';
import { checkReadiness, readinessProbe } from './readiness.ts';

describe.each(testDatabaseKinds())('/healthz and /readyz on %s', (kind) => {
  it('answers alive, and ready with the database and migrations checked', async () => {
    const server = await startTestServer(kind);
    try {
      expect(await server.request('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
      const ready = await server.request<{ ready: boolean; checks: Record<string, { ok: boolean }> }>(
        'GET',
        '/readyz',
      );
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        ready: true,
        checks: { database: { ok: true }, migrations: { ok: true } },
      });
    } finally {
      await server.close();
    }
  });

  it('is not ready on a database whose migrations have not run', async () => {
    const database = await createTestDb(kind, { migrate: false });
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      db: database.db,
      logger: false,
    });
    try {
      const answer = await app.inject({ method: 'GET', url: '/readyz' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toMatchObject({
        ready: false,
        checks: {
          database: { ok: true },
          migrations: { ok: false, error: 'migrations pending: run `bytegate migrate`' },
        },
      });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('readiness checks', () => {
  it('fail a check that throws or does not answer in time, and pass the rest', async () => {
    const readiness = await checkReadiness([
      { name: 'fine', check: async () => undefined },
      { name: 'broken', check: async () => Promise.reject(new Error('connection refused')) },
      { name: 'hung', check: () => new Promise(() => undefined) },
    ]);
    expect(readiness.ready).toBe(false);
    expect(readiness.checks.fine).toMatchObject({ ok: true });
    expect(readiness.checks.broken).toMatchObject({ ok: false, error: 'connection refused' });
    expect(readiness.checks.hung).toMatchObject({ ok: false, error: 'no answer within 2000 ms' });
  });

  it('run at most once a second however often /readyz is asked', async () => {
    let runs = 0;
    const counted = async () => {
      runs += 1;
    };
    const probe = readinessProbe([{ name: 'counted', check: counted }], 200);
    await Promise.all(Array.from({ length: 50 }, () => probe()));
    expect(runs).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await probe();
    expect(runs).toBe(2);
  });
});
