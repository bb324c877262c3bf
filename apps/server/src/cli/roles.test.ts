// ROLES made real (issue 16): separate `bytegate start` processes on one PostgreSQL database, each running
// only its parts. An api,web process serves HTTP and no proxy; a gateway,jobs process opens no HTTP port;
// processes started at once migrate one after another; the jobs run in one process, and another takes
// over within seconds when that one is killed.
import { connect } from 'node:net';
import { createTestDb } from '@bytegate/db/testing';
import { freePort } from '@bytegate/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BytegateProcess, startBytegate } from '../testing/bytegate-process.ts';

type Process = BytegateProcess;

/** Starts `bytegate start` with these roles on the database; resolves once it says it runs. */
const startProcess = (databaseUrl: string, roles: string, extraEnv: Record<string, string> = {}) =>
  startBytegate(`bytegate start (${roles})`, { DATABASE_URL: databaseUrl, ROLES: roles, ...extraEnv });

/** Whether something accepts TCP connections on the port. */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const LEADS = 'jobs: this process leads them';

/** Starts a process that must refuse to run; answers its exit status and what it printed. */
async function startRefused(
  databaseUrl: string,
  roles: string,
): Promise<{ status: number | null; output: string }> {
  try {
    const started = await startProcess(databaseUrl, roles);
    started.child.kill('SIGKILL');
    return { status: 0, output: started.output() };
  } catch (error) {
    return { status: 1, output: String(error) };
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)('bytegate start with ROLES on PostgreSQL', () => {
  let databaseUrl: string;
  let dropDatabase: () => Promise<void>;
  const processes: Process[] = [];
  let api: Process;
  let workers: Process[];
  let metricsPort: number;

  beforeAll(async () => {
    // A database nobody migrated: the processes start at once and must migrate one after another.
    const handle = await createTestDb('postgres', { migrate: false });
    databaseUrl = handle.databaseUrl ?? '';
    dropDatabase = () => handle.close();
    metricsPort = await freePort();
    [api, ...workers] = await Promise.all([
      startProcess(databaseUrl, 'web,api'),
      startProcess(databaseUrl, 'gateway,jobs', { METRICS_PORT: String(metricsPort) }),
      startProcess(databaseUrl, 'jobs'),
    ]);
    processes.push(api, ...workers);
  }, 200_000);

  afterAll(async () => {
    for (const one of processes) {
      one.child.kill('SIGKILL');
    }
    await dropDatabase?.();
  });

  it('serves HTTP from the api process only, and the proxy from the gateway process only', async () => {
    const [gateway] = workers;
    expect(await isListening(api.ports.http)).toBe(true);
    expect(await isListening(api.ports.gateway)).toBe(false);
    expect((await fetch(`http://127.0.0.1:${api.ports.http}/api/health`)).status).toBe(200);
    expect(await isListening(gateway?.ports.http ?? 0)).toBe(false);
    expect(await isListening(gateway?.ports.gateway ?? 0)).toBe(true);
  });

  it('refuses a second gateway, and a second API process without REDIS_URL, naming why', async () => {
    const gateway = await startRefused(databaseUrl, 'gateway');
    expect(gateway.output).toContain('Cannot start: another gateway process runs on this database');
    const secondApi = await startRefused(databaseUrl, 'api');
    expect(secondApi.output).toContain('more than one needs REDIS_URL');
  });

  it.runIf(process.env.TEST_REDIS_URL)('runs a second API process with REDIS_URL', async () => {
    // The first API process holds the lock of an API without Redis: a process with Redis still starts.
    const second = await startProcess(databaseUrl, 'api', { REDIS_URL: process.env.TEST_REDIS_URL ?? '' });
    processes.push(second);
    expect((await fetch(`http://127.0.0.1:${second.ports.http}/readyz`)).status).toBe(200);
  });

  it('answers /healthz and /readyz with the database and the migrations checked', async () => {
    expect(await (await fetch(`http://127.0.0.1:${api.ports.http}/healthz`)).json()).toEqual({
      status: 'ok',
    });
    const ready = await fetch(`http://127.0.0.1:${api.ports.http}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      checks: { database: { ok: true }, migrations: { ok: true } },
    });
  });

  it('answers health and metrics of the gateway-only process on its METRICS_PORT', async () => {
    const base = `http://127.0.0.1:${metricsPort}`;
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      checks: { database: { ok: true }, migrations: { ok: true } },
    });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('bytegate_gateway_connections_open');
  });

  it('says which process leads the jobs, in /metrics and /readyz, and TEST MODE only where payments are taken', async () => {
    const deadline = Date.now() + 15_000;
    while (!workers.some((one) => one.output().includes(LEADS)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const leaderFigures = await Promise.all(
      workers.map(async (one) => {
        const base = `http://127.0.0.1:${one.ports.metrics}`;
        const metrics = await (await fetch(`${base}/metrics`)).text();
        const ready = (await (await fetch(`${base}/readyz`)).json()) as { jobs?: { leader: boolean } };
        return {
          leads: one.output().includes(LEADS),
          gauge: /^bytegate_jobs_leader (\d)$/m.exec(metrics)?.[1],
          readyz: ready.jobs?.leader,
        };
      }),
    );
    expect(leaderFigures.filter((one) => one.leads)).toEqual([{ leads: true, gauge: '1', readyz: true }]);
    expect(leaderFigures.filter((one) => !one.leads)).toEqual([{ leads: false, gauge: '0', readyz: false }]);
    // The API process runs no jobs: neither figure.
    const apiBase = `http://127.0.0.1:${api.ports.metrics}`;
    expect(await (await fetch(`${apiBase}/metrics`)).text()).not.toContain('bytegate_jobs_leader');
    expect(await (await fetch(`${apiBase}/readyz`)).json()).not.toHaveProperty('jobs');
    // Payments (and their sandboxes) are the API's: only its banner names them.
    expect(api.output()).toContain('Payments: TEST MODE');
    for (const one of workers) {
      expect(one.output()).not.toContain('Payments:');
    }
  });

  it('runs the jobs in one process, and another takes over when it is killed', async () => {
    const leadsIn = () =>
      workers.filter((one) => one.child.exitCode === null && one.output().includes(LEADS));
    const deadline = Date.now() + 15_000;
    while (leadsIn().length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(leadsIn()).toHaveLength(1);
    expect(api.output()).not.toContain(LEADS);
    const [leader] = leadsIn();
    const follower = workers.find((one) => one !== leader);
    leader?.child.kill('SIGKILL');
    const killedAt = Date.now();
    while (!follower?.output().includes(LEADS) && Date.now() - killedAt < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(follower?.output()).toContain(LEADS);
    // The follower tries every 5 s: it takes over well within the 30 s the issue allows.
    expect(Date.now() - killedAt).toBeLessThan(10_000);
  });
});
