import type { Database } from '@bytegate/db';
import {
  createGateway,
  DEFAULT_OPEN_PORTS,
  type DrainReport,
  type GatewayConnections,
  type GatewayStats,
  type ListeningPorts,
  type PortRange,
} from '@bytegate/gateway';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { type LiveSource, startLiveSampler } from '../services/stats/live-source.ts';
import { type RunningAgentHub, runAgentHub } from './agents/run-agent-hub.ts';
import { DbGatewayStore, type UsageFlushObserver } from './db-gateway-store.ts';
import { type Fleet, joinFleet } from './fleet/fleet.ts';
import type { LocalGatewayChanges } from './local-gateway-changes.ts';

const REFRESH_EVERY_MS = 1000;
const FLUSH_EVERY_MS = 1000;

export interface RunningGateway extends ListeningPorts {
  store: DbGatewayStore;
  /** Flushes what is metered and stops the listeners. */
  stop(): Promise<void>;
  /**
   * Shutdown: stops accepting at once, lets open tunnels and requests finish for up to `graceMs`, cuts
   * the rest, then flushes metering (and exit health) a last time.
   */
  drain(graceMs: number): Promise<DrainReport>;
  /** One flush now (tests, shutdown): metering, then exit health. */
  flush(): Promise<void>;
  /** What this process holds open now (the console's health view). */
  connections(): GatewayConnections;
  /** The engine's live counters (metrics). */
  stats(): GatewayStats;
  /** With REDIS_URL: whether Redis answers (false: local limits) and how often a decision fell back. */
  sharedState(): { isDegraded: boolean; fallbacks: number } | null;
  /** The live view of this gateway (sampled every second; with REDIS_URL also published for the fleet). */
  live: LiveSource;
  /** The exit agents' hub, when GATEWAY_AGENT_PORT is set (docs/agents.md). */
  agentHub: RunningAgentHub | null;
}

/**
 * Runs the proxy engine over the database: refreshes its view of plans, allowlists and exits every
 * second, and has the engine flush metering every second (one transaction each). While the database
 * is unreachable the engine keeps serving from what it has cached, and metering piles up in memory
 * without loss or double billing (the engine's tunnel/usage-flush.ts says how).
 */
export async function runGateway(
  config: Config,
  db: Database,
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'> & Partial<Pick<FastifyBaseLogger, 'debug'>>,
  overrides: {
    httpPort?: number;
    /** null runs no SOCKS5 listener; 0 picks a free port. */
    socksPort?: number | null;
    /** null runs no sticky ports. */
    stickyPorts?: PortRange | null;
    host?: string;
    openPorts?: ReadonlySet<number>;
    /** Told how each usage write went (the metrics' flush histogram). */
    onUsageFlush?: UsageFlushObserver;
    /** The API in this process: its writes answer once this gateway has read them. */
    changes?: LocalGatewayChanges;
    /** The agent hub's port (0: a free one; null: no hub), instead of GATEWAY_AGENT_PORT. */
    agentPort?: number | null;
  } = {},
): Promise<RunningGateway> {
  const store = new DbGatewayStore(db, overrides.onUsageFlush);
  await store.refresh();
  // With Redis, thread slots, traffic and sticky sessions are the fleet's (docs/processes.md "Processes and roles").
  const fleet: Fleet | null = config.redisUrl
    ? await joinFleet({ redisUrl: config.redisUrl, prefix: config.redisPrefix, store, log })
    : null;
  const gateway = createGateway(store, {
    ...(fleet ? { shared: fleet.shared } : {}),
    host: overrides.host ?? config.host,
    httpPort: overrides.httpPort ?? config.gateway.httpPort,
    socksPort: overrides.socksPort === null ? undefined : (overrides.socksPort ?? config.gateway.socksPort),
    stickyPorts:
      overrides.stickyPorts === null ? undefined : (overrides.stickyPorts ?? config.gateway.stickyPorts),
    allowPrivateTargets: config.gateway.allowPrivateTargets,
    openPorts: overrides.openPorts ?? new Set([...DEFAULT_OPEN_PORTS, ...config.gateway.extraOpenPorts]),
    usageFlushEveryMs: FLUSH_EVERY_MS,
    supplyPreference: config.gateway.supplyPreference,
    log,
  });
  // Started before listen() starts the engine's flush timer, so each second refreshes, then flushes: the
  // order the outage tests were proven in. (Flush first, a dead connection can fail a flush at BEGIN,
  // which drizzle-orm's transaction() runs outside its try, and the pooled client is never released.)
  const refresher = setInterval(() => {
    store.refresh().catch((error: unknown) => log.error({ err: error }, 'gateway refresh failed'));
  }, REFRESH_EVERY_MS);
  refresher.unref();
  const unregister = overrides.changes?.register(() => store.refresh()) ?? (() => undefined);
  // Exit health is not billing: one drain a second, in one statement, never two at once (a database
  // that stopped answering holds one pooled connection, not one more each second); a failed one is put back.
  let isFlushingHealth = false;
  const flushExitHealth = async () => {
    if (isFlushingHealth) {
      return;
    }
    const drained = gateway.exitHealth.drain();
    const bySource = gateway.sourceHealth.drain();
    if (drained.size === 0 && bySource.dials.size === 0 && bySource.alarms.length === 0) {
      return;
    }
    isFlushingHealth = true;
    try {
      await store.flushExitHealth(drained);
    } catch (error) {
      gateway.exitHealth.restore(drained);
      log.warn({ err: error }, 'exit health flush failed; kept for the next one');
    }
    try {
      await store.flushSourceHealth(bySource);
    } catch (error) {
      gateway.sourceHealth.restore(bySource);
      log.warn({ err: error }, 'source health flush failed; kept for the next one');
    } finally {
      isFlushingHealth = false;
    }
  };
  const healthFlusher = setInterval(() => void flushExitHealth(), FLUSH_EVERY_MS);
  healthFlusher.unref();
  let ports: ListeningPorts;
  try {
    ports = await gateway.listen();
  } catch (error) {
    clearInterval(refresher);
    clearInterval(healthFlusher);
    unregister();
    await fleet?.close();
    throw error;
  }
  const agentPort = overrides.agentPort === undefined ? config.gateway.agentHub?.port : overrides.agentPort;
  let agentHub: RunningAgentHub | null = null;
  if (agentPort !== undefined && agentPort !== null) {
    try {
      agentHub = await runAgentHub({
        config,
        db,
        store,
        log,
        host: overrides.host ?? config.host,
        port: agentPort,
      });
    } catch (error) {
      clearInterval(refresher);
      clearInterval(healthFlusher);
      unregister();
      await gateway.close();
      await fleet?.close();
      throw error;
    }
  }
  const live = startLiveSampler(
    { connections: () => gateway.connections(), carriedByPlan: () => gateway.meter.carriedByPlan },
    fleet ? { redis: fleet.member.redis, prefix: config.redisPrefix, memberId: fleet.member.id } : null,
  );

  return {
    ...ports,
    store,
    async flush() {
      await gateway.flushUsage();
      await flushExitHealth();
    },
    connections: () => gateway.connections(),
    stats: () => gateway.stats(),
    sharedState: () =>
      fleet ? { isDegraded: fleet.member.isDegraded, fallbacks: fleet.member.fallbacks } : null,
    live: live.source,
    agentHub,
    async stop() {
      live.stop();
      await agentHub?.stop();
      clearInterval(refresher);
      clearInterval(healthFlusher);
      unregister();
      // Closing ends the connections and flushes what they carried last.
      await gateway.close();
      await flushExitHealth();
      await fleet?.close();
    },
    async drain(graceMs) {
      // Plans keep refreshing while tunnels drain: a plan deactivated meanwhile still closes them.
      const report = await gateway.drain(graceMs);
      await agentHub?.stop();
      live.stop();
      unregister();
      clearInterval(refresher);
      clearInterval(healthFlusher);
      await flushExitHealth();
      await fleet?.close();
      return report;
    },
  };
}
