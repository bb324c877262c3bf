import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** The advisory lock the jobs' leader holds ("bytegate jobs" as a number); one per database. */
export const JOBS_LEADER_LOCK = 6_268_757_411_903_091n;

export interface JobsLeadership {
  isLeader(): boolean;
  /** Stops the jobs if this process leads, gives the lock up and stops trying. */
  stop(): Promise<void>;
}

/**
 * Runs the jobs in exactly one process of the fleet: each `jobs` process keeps a connection of its own
 * and tries PostgreSQL's session advisory lock every `retryMs`; the one holding it runs the jobs. When the
 * leader dies its session ends and the lock is free at once, so another process takes over within
 * `retryMs`. A leader checks its connection on the same beat: one that lost it (the lock went with the
 * session) stops its jobs before another can have started them for longer than a beat.
 */
export function leadJobsWhenElected(options: {
  databaseUrl: string;
  startJobs: () => () => void;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  retryMs?: number;
  lockKey?: bigint;
}): JobsLeadership {
  const retryMs = options.retryMs ?? 5000;
  const lockKey = String(options.lockKey ?? JOBS_LEADER_LOCK);
  let client: pg.Client | null = null;
  let stopJobs: (() => void) | null = null;
  let isStopped = false;
  let timer: NodeJS.Timeout | undefined;

  const dropConnection = async () => {
    const old = client;
    client = null;
    await old?.end().catch(() => undefined);
  };
  const resign = (why: string) => {
    if (stopJobs) {
      stopJobs();
      stopJobs = null;
      options.log.warn(`jobs: no longer the leader (${why}); stopped them`);
    }
  };

  const beat = async () => {
    try {
      if (!client) {
        const fresh = new pg.Client({
          connectionString: options.databaseUrl,
          connectionTimeoutMillis: 5000,
          query_timeout: Math.max(1000, retryMs),
          keepAlive: true,
        });
        // A dropped connection is noticed by the next beat's query; unheard, 'error' would end the process.
        fresh.on('error', () => undefined);
        await fresh.connect();
        client = fresh;
      }
      if (stopJobs) {
        await client.query('select 1');
        return;
      }
      const { rows } = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1::bigint) as locked',
        [lockKey],
      );
      if (rows[0]?.locked && !isStopped) {
        options.log.info('jobs: this process leads them');
        stopJobs = options.startJobs();
      }
    } catch (error) {
      resign(error instanceof Error ? error.message : String(error));
      await dropConnection();
    }
  };

  const loop = async () => {
    await beat();
    if (!isStopped) {
      timer = setTimeout(() => void loop(), retryMs);
      timer.unref();
    }
  };
  void loop();

  return {
    isLeader: () => stopJobs !== null,
    async stop() {
      isStopped = true;
      clearTimeout(timer);
      if (stopJobs) {
        stopJobs();
        stopJobs = null;
      }
      // Ending the session gives the lock up: a follower takes over at its next beat.
      await dropConnection();
    },
  };
}
