import { randomUUID } from 'node:crypto';
import type { Database } from '@bytegate/db';
import {
  createGateway,
  DEFAULT_OPEN_PORTS,
  type ListeningPorts,
  type PlanUsage,
  type PortRange,
} from '@bytegate/gateway';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { DbGatewayStore } from './db-gateway-store.ts';

const REFRESH_EVERY_MS = 1000;
const FLUSH_EVERY_MS = 1000;

export interface RunningGateway extends ListeningPorts {
  store: DbGatewayStore;
  /** Flushes what is metered and stops the listeners. */
  stop(): Promise<void>;
  /** One flush now (tests, shutdown). */
  flush(): Promise<void>;
}

/**
 * Runs the proxy engine over the database: refreshes its view of plans, allowlists and exits every
 * second, and flushes metering every second in one transaction. While the database is unreachable the
 * engine keeps serving from what it has cached, and metering piles up in memory (still counted against
 * each plan's traffic). A failed flush puts its usage back into the meter; because a failure can hide a
 * commit whose answer was lost, the next flush first asks whether that one was applied after all (by
 * its id) and, if so, takes its usage back out: nothing is lost and nothing is billed twice.
 */
export async function runGateway(
  config: Config,
  db: Database,
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  overrides: {
    httpPort?: number;
    /** null runs no SOCKS5 listener; 0 picks a free port. */
    socksPort?: number | null;
    /** null runs no sticky ports. */
    stickyPorts?: PortRange | null;
    host?: string;
    openPorts?: ReadonlySet<number>;
  } = {},
): Promise<RunningGateway> {
  const store = new DbGatewayStore(db);
  await store.refresh();
  const gateway = createGateway(store, {
    host: overrides.host ?? config.host,
    httpPort: overrides.httpPort ?? config.gateway.httpPort,
    socksPort: overrides.socksPort === null ? undefined : (overrides.socksPort ?? config.gateway.socksPort),
    stickyPorts:
      overrides.stickyPorts === null ? undefined : (overrides.stickyPorts ?? config.gateway.stickyPorts),
    allowPrivateTargets: config.gateway.allowPrivateTargets,
    openPorts: overrides.openPorts ?? new Set([...DEFAULT_OPEN_PORTS, ...config.gateway.extraOpenPorts]),
  });
  const ports = await gateway.listen();

  let isFlushing = false;
  /** The last flush that failed: its usage is back in the meter, its fate in the database unknown. */
  let unsettled: { flushId: string; usage: Map<string, PlanUsage> } | null = null;
  const flush = async () => {
    if (isFlushing) {
      return;
    }
    isFlushing = true;
    try {
      if (unsettled) {
        if (await store.wasFlushApplied(unsettled.flushId)) {
          gateway.meter.forget(unsettled.usage);
          store.noteApplied(unsettled.usage);
        }
        unsettled = null;
      }
    } catch (error) {
      isFlushing = false;
      log.warn({ err: error }, 'gateway metering waits for the database; usage is kept in memory');
      return;
    }
    const usage = gateway.meter.drain();
    const flushId = randomUUID();
    try {
      await store.flush(usage, flushId);
    } catch (error) {
      gateway.meter.restore(usage);
      unsettled = { flushId, usage };
      log.error({ err: error }, 'gateway metering flush failed; retrying next second');
    } finally {
      isFlushing = false;
    }
  };
  const refresher = setInterval(() => {
    store.refresh().catch((error: unknown) => log.error({ err: error }, 'gateway refresh failed'));
  }, REFRESH_EVERY_MS);
  const flusher = setInterval(() => void flush(), FLUSH_EVERY_MS);
  refresher.unref();
  flusher.unref();

  return {
    ...ports,
    store,
    flush,
    async stop() {
      clearInterval(refresher);
      clearInterval(flusher);
      await gateway.close();
      await flush();
    },
  };
}
