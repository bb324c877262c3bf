import { createTestDb, testDatabaseKinds } from '@bytegate/db/testing';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { buildApp } from '../http/app.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { startMetricsServer } from '../metrics/metrics-server.ts';
import { startTestServer } from '../testing/test-server.ts';
import { checkReadiness, databaseChecks, handleHealthRequest, readinessProbe } from './readiness.ts';

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

  it('answers 503 from the first moment of a drain, and says whether the process leads the jobs', async () => {
    const database = await createTestDb(kind);
    let isDraining = false;
    let isLeader = true;
    const state = { isDraining: () => isDraining, isJobsLeader: () => isLeader };
    // The health port of a gateway- or jobs-only process (METRICS_PORT), as `bytegate start` wires it.
    const metrics = createMetrics({ db: database.db, isJobsLeader: state.isJobsLeader });
    const probe = readinessProbe(databaseChecks(database.db), { state });
    const server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      metrics,
      handlers: [(req, res) => handleHealthRequest(req, res, probe)],
    });
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent' }),
      db: database.db,
      logger: false,
      processState: state,
    });
    const base = `http://127.0.0.1:${server.port}`;
    const readyz = async () => {
      const answer = await fetch(`${base}/readyz`);
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    try {
      expect(await readyz()).toMatchObject({ status: 200, body: { ready: true, jobs: { leader: true } } });
      expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/^bytegate_jobs_leader 1$/m);
      // Read at every probe, never from the checks' cache.
      isLeader = false;
      expect(await readyz()).toMatchObject({ status: 200, body: { jobs: { leader: false } } });
      expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/^bytegate_jobs_leader 0$/m);
      isDraining = true;
      expect(await readyz()).toMatchObject({
        status: 503,
        body: { ready: false, draining: true, checks: { database: { ok: true } } },
      });
      const onApp = await app.inject({ method: 'GET', url: '/readyz' });
      expect(onApp.statusCode).toBe(503);
      expect(onApp.json()).toMatchObject({ ready: false, draining: true });
    } finally {
      await app.close();
      await server.close();
      await database.close();
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

  it('stay ready when only an optional check fails (Redis: the degraded mode), and name it', async () => {
    const redisDown = {
      name: 'redis',
      isOptional: true,
      check: async () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const readiness = await checkReadiness([{ name: 'database', check: async () => undefined }, redisDown]);
    expect(readiness).toMatchObject({
      ready: true,
      degraded: ['redis'],
      checks: { database: { ok: true }, redis: { ok: false, optional: true, error: 'ECONNREFUSED' } },
    });
    const databaseDown = { name: 'database', check: async () => Promise.reject(new Error('refused')) };
    expect(await checkReadiness([databaseDown, redisDown])).toMatchObject({
      ready: false,
      degraded: ['redis'],
    });
  });

  it('run at most once a second however often /readyz is asked', async () => {
    let runs = 0;
    const counted = async () => {
      runs += 1;
    };
    const probe = readinessProbe([{ name: 'counted', check: counted }], { everyMs: 200 });
    await Promise.all(Array.from({ length: 50 }, () => probe()));
    expect(runs).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await probe();
    expect(runs).toBe(2);
  });
});
