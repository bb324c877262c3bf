import cluster, { type Worker } from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { RunningPart } from './shutdown.ts';
import { FINAL_STEPS_MS } from './shutdown.ts';

/** Set in a worker's environment: its number, from 1. */
const WORKER_ENV = 'BYTEGATE_GATEWAY_WORKER';
/** A worker that died is started again after this long (not at once: a crash loop must not spin). */
const RESTART_AFTER_MS = 1000;

/** The number of this process as a gateway worker, or null when it is not one. */
export function gatewayWorkerNumber(): number | null {
  const value = process.env[WORKER_ENV];
  return cluster.isWorker && value ? Number(value) : null;
}

/**
 * GATEWAY_WORKERS=N (docs/processes.md "Processes and roles"): the primary process forks N gateway processes that
 * share the gateway's listening ports (node:cluster hands each new connection to one of them in turn)
 * and coordinate through Redis as separate hosts would. Each is `bytegate start` with ROLES=gateway; its
 * metrics and health answer on METRICS_PORT + its number. A worker that dies is started again; SIGTERM
 * to the primary drains every worker (each its own SHUTDOWN_GRACE_S) before the primary exits.
 */
export function startGatewayWorkers(
  config: Config,
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
): RunningPart & { pids(): number[] } {
  // Each worker accepts from the shared listening socket itself (the kernel spreads connections), not
  // the primary accepting every connection and handing it over: that hand-off cost about 240 µs of CPU
  // per connection and made 2 workers slower than 1 (bench:workers). NODE_CLUSTER_SCHED_POLICY=rr, Node's
  // own setting, still chooses the hand-off.
  cluster.schedulingPolicy =
    process.env.NODE_CLUSTER_SCHED_POLICY === 'rr' ? cluster.SCHED_RR : cluster.SCHED_NONE;
  const workers = new Map<number, Worker>();
  let isStopping = false;
  const fork = (number: number) => {
    const worker = cluster.fork({
      [WORKER_ENV]: String(number),
      ROLES: 'gateway',
      GATEWAY_WORKERS: '1',
      ...(config.metrics.port === undefined ? {} : { METRICS_PORT: String(config.metrics.port + number) }),
    });
    workers.set(number, worker);
    worker.once('exit', (code, signal) => {
      workers.delete(number);
      if (isStopping) {
        return;
      }
      log.error({ worker: number, code, signal }, `gateway worker ${number} died; starting it again`);
      setTimeout(() => {
        if (!isStopping) {
          fork(number);
        }
      }, RESTART_AFTER_MS).unref();
    });
  };
  for (let number = 1; number <= config.gateway.workers; number += 1) {
    fork(number);
  }
  return {
    name: 'gateway workers',
    pids: () => [...workers.values()].flatMap((worker) => (worker.process.pid ? [worker.process.pid] : [])),
    async stop(graceMs) {
      isStopping = true;
      const running = [...workers.values()];
      const exited = running.map(
        (worker) =>
          new Promise<number | null>((resolve) => {
            if (worker.isDead()) {
              resolve(worker.process.exitCode);
              return;
            }
            worker.once('exit', (code) => resolve(code));
          }),
      );
      for (const worker of running) {
        worker.process.kill('SIGTERM');
      }
      let deadline: NodeJS.Timeout | undefined;
      const codes = await Promise.race([
        Promise.all(exited),
        new Promise<null>((resolve) => {
          deadline = setTimeout(() => resolve(null), graceMs + FINAL_STEPS_MS);
        }),
      ]);
      clearTimeout(deadline);
      if (codes === null) {
        for (const worker of running) {
          worker.process.kill('SIGKILL');
        }
        throw new Error('gateway workers outran the grace and were killed');
      }
      if (codes.some((code) => code !== 0)) {
        throw new Error(`gateway workers exited with ${codes.join(', ')}`);
      }
      return { workers: running.length };
    },
  };
}
