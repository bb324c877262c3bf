import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '@bytegate/db';
import { areMigrationsApplied, pingDatabase } from '@bytegate/db/health';
import type { Redis } from 'ioredis';

/** Something a process needs to serve; it throws (or times out) when it is not there. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, { ok: boolean; ms: number; error?: string }>;
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

/** Redis answers a PING (when REDIS_URL is set). */
export function redisCheck(redis: Redis): ReadinessCheck {
  return {
    name: 'redis',
    async check() {
      await redis.ping();
    },
  };
}

/** Runs every check at once, each bounded in time; ready when all passed. */
export async function checkReadiness(checks: readonly ReadinessCheck[]): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
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
        return [name, { ok: true, ms: Math.round(performance.now() - started) }] as const;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return [name, { ok: false, ms: Math.round(performance.now() - started), error: message }] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: results.every(([, result]) => result.ok), checks: Object.fromEntries(results) };
}

/**
 * The readiness of `checks`, run at most once a second however often it is asked: `/readyz` answers
 * anyone before sign-in, and a flood of probes must not become a flood of database queries.
 */
export function readinessProbe(checks: readonly ReadinessCheck[], everyMs = 1000): () => Promise<Readiness> {
  let last: { at: number; readiness: Promise<Readiness> } | null = null;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= everyMs) {
      last = { at: now, readiness: checkReadiness(checks) };
    }
    return last.readiness;
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
