import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '@bytegate/db';
import { areMigrationsApplied, pingDatabase } from '@bytegate/db/health';
import type { Redis } from 'ioredis';

/** Something a process needs to serve; it throws (or times out) when it is not there. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /**
   * The process serves on without it, in a degraded mode (Redis: each process limits on its own): a
   * failure is reported (`degraded`), and the process stays ready.
   */
  isOptional?: boolean;
}

export interface Readiness {
  /** "Send me traffic": every check that is not optional passed, and the process is not draining. */
  ready: boolean;
  /** From the first moment of a drain (SIGTERM): the process takes no new work, whatever the checks say. */
  draining?: true;
  /** The optional checks that failed: the process serves, in a degraded mode. */
  degraded: string[];
  checks: Record<string, { ok: boolean; ms: number; error?: string; optional?: true }>;
  /** In a process that runs the background jobs: whether it leads them (one process of the fleet does). */
  jobs?: { leader: boolean };
}

/** What the process itself knows of its state, read at every probe (never cached). */
export interface ProcessState {
  isDraining(): boolean;
  /** Set in a process with the `jobs` role only. */
  isJobsLeader?: () => boolean;
}

/** How long one check may take before the process counts as not ready (a hung database). */
const CHECK_TIMEOUT_MS = 2000;

/** The checks of a process on a database: it answers, and every committed migration has run. */
export function databaseChecks(db: Database): ReadinessCheck[] {
  return [
    { name: 'database', check: () => pingDatabase(db) },
    {
      name: 'migrations',
      async check() {
        if (!(await areMigrationsApplied(db))) {
          throw new Error('migrations pending: run `bytegate migrate`');
        }
      },
    },
  ];
}

/**
 * Redis answers a PING (when REDIS_URL is set). Optional: without it every process serves on its own
 * limits (the fleet's degraded mode), and a balancer routing on /readyz must not take the fleet out.
 */
export function redisCheck(redis: Redis): ReadinessCheck {
  return {
    name: 'redis',
    isOptional: true,
    async check() {
      await redis.ping();
    },
  };
}

/** Runs every check at once, each bounded in time; ready when all but the optional ones passed. */
export async function checkReadiness(checks: readonly ReadinessCheck[]): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async ({ name, check, isOptional }) => {
      const optional = isOptional ? { optional: true as const } : {};
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
              CHECK_TIMEOUT_MS,
            );
          }),
        ]);
        return [name, { ok: true, ms: Math.round(performance.now() - started), ...optional }] as const;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const ms = Math.round(performance.now() - started);
        return [name, { ok: false, ms, error: message, ...optional }] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const failed = results.filter(([, result]) => !result.ok);
  return {
    ready: failed.every(([, result]) => result.optional),
    degraded: failed.filter(([, result]) => result.optional).map(([name]) => name),
    checks: Object.fromEntries(results),
  };
}

/**
 * The readiness of `checks`, run at most once a second however often it is asked (`/readyz` answers
 * anyone before sign-in, and a flood of probes must not become a flood of database queries), with the
 * process's own `state` read at every probe: a drain answers 503 from its first moment.
 */
export function readinessProbe(
  checks: readonly ReadinessCheck[],
  options: { everyMs?: number; state?: ProcessState } = {},
): () => Promise<Readiness> {
  const { everyMs = 1000, state } = options;
  let last: { at: number; readiness: Promise<Readiness> } | null = null;
  return async () => {
    const now = Date.now();
    if (!last || now - last.at >= everyMs) {
      last = { at: now, readiness: checkReadiness(checks) };
    }
    const readiness = await last.readiness;
    const isDraining = state?.isDraining() ?? false;
    return {
      ...readiness,
      ready: readiness.ready && !isDraining,
      ...(isDraining ? { draining: true as const } : {}),
      ...(state?.isJobsLeader ? { jobs: { leader: state.isJobsLeader() } } : {}),
    };
  };
}

/**
 * `/healthz` (the process is alive: always 200) and `/readyz` (200 when every check passes, else 503 with
 * what failed) for a plain node:http server: the gateway-only process's small port. Answers whether it
 * handled the request.
 */
export function handleHealthRequest(
  req: IncomingMessage,
  res: ServerResponse,
  probe: () => Promise<Readiness>,
): boolean {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
    return true;
  }
  if (path === '/readyz') {
    void probe().then((readiness) => {
      res
        .writeHead(readiness.ready ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify(readiness));
    });
    return true;
  }
  return false;
}
