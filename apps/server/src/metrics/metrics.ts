import type { Database } from '@bytegate/db';
import type { GatewayStats } from '@bytegate/gateway';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { UsageFlushObserver } from '../gateway/db-gateway-store.ts';
import { gatewaySamples, type Sample } from './gateway-samples.ts';
import { createRoundTripProbe } from './round-trip.ts';

/** How long a round trip (the database's `select 1`, Redis's PING) may take at a scrape before it fails. */
const ROUND_TRIP_TIMEOUT_MS = 2000;

export interface Metrics {
  registry: Registry;
  /** For the gateway's store: how each usage write went (the flush histogram and failures). */
  observeUsageFlush: UsageFlushObserver;
  /** Adds Redis's round trip (a PING at each scrape), once the process has a Redis connection. */
  trackRedis(redis: Pick<Redis, 'ping'>): void;
  /** The Prometheus text exposition, read now, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

export interface MetricsOptions {
  db: Database;
  /**
   * The engine's live counters, when this process runs the gateway (null until it has started). Without
   * it no gateway or usage flush metric is exported.
   */
  gateway?: () => GatewayStats | null;
  /** With REDIS_URL, the gateway's shared state: whether Redis answers, and fallbacks to local limits. */
  gatewaySharedState?: () => { isDegraded: boolean; fallbacks: number } | null;
  /** In a process with the `jobs` role: whether it leads the background jobs now. */
  isJobsLeader?: () => boolean;
  /** ROUND_TRIP_TIMEOUT_MS unless said (tests). */
  roundTripTimeoutMs?: number;
}

/**
 * Each value is read when Prometheus scrapes (collect callbacks), from counters that already exist:
 * nothing here runs per connection. Label values are bounded (gateway-samples.ts): no plan, user,
 * login or address ever becomes one.
 */
export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  // Node's own: CPU, memory, heap, GC, handles, and event loop lag (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry });

  const timeoutMs = options.roundTripTimeoutMs ?? ROUND_TRIP_TIMEOUT_MS;
  registerRoundTrip(registry, 'database', 'select 1', () => options.db.execute(sql`select 1`), timeoutMs);
  let isTrackingRedis = false;

  const readGateway = options.gateway;
  let observeUsageFlush: UsageFlushObserver = () => undefined;
  if (readGateway) {
    registerGatewayMetrics(registry, readGateway);
    const flushSeconds = new Histogram({
      name: 'bytegate_usage_flush_seconds',
      help: "Time to store one drain of the gateway's metered usage (one transaction), failed attempts included",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const flushFailures = new Counter({
      name: 'bytegate_usage_flush_failures_total',
      help: 'Usage flushes that did not store (the usage waits in memory for the next one)',
      registers: [registry],
    });
    observeUsageFlush = ({ seconds, isStored }) => {
      flushSeconds.observe(seconds);
      if (!isStored) {
        flushFailures.inc();
      }
    };
  }

  const readShared = options.gatewaySharedState;
  if (readShared) {
    new Gauge({
      name: 'bytegate_gateway_shared_state_degraded',
      help: '1 while Redis does not answer and the gateway limits threads and traffic on its own, else 0',
      registers: [registry],
      collect() {
        this.set(readShared()?.isDegraded ? 1 : 0);
      },
    });
    new Counter({
      name: 'bytegate_gateway_shared_state_fallbacks_total',
      help: 'Decisions (thread slots, traffic, sessions) taken on local limits because Redis did not answer',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(readShared()?.fallbacks ?? 0);
      },
    });
  }

  const isJobsLeader = options.isJobsLeader;
  if (isJobsLeader) {
    new Gauge({
      name: 'bytegate_jobs_leader',
      help: 'In a process with the jobs role: 1 while it leads the background jobs, else 0 (one process of the fleet leads)',
      registers: [registry],
      collect() {
        this.set(isJobsLeader() ? 1 : 0);
      },
    });
  }

  return {
    registry,
    observeUsageFlush,
    trackRedis(redis) {
      if (!isTrackingRedis) {
        isTrackingRedis = true;
        registerRoundTrip(registry, 'redis', 'PING', () => redis.ping(), timeoutMs);
      }
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/**
 * `bytegate_<what>_roundtrip_seconds`, measured at each scrape (NaN when it failed or timed out), and
 * `bytegate_<what>_roundtrip_failures_total`.
 */
function registerRoundTrip(
  registry: Registry,
  what: 'database' | 'redis',
  command: string,
  run: () => Promise<unknown>,
  timeoutMs: number,
): void {
  const probe = createRoundTripProbe(run, timeoutMs);
  // The scrape collects every metric at once: the counter waits for this scrape's probe to be counted.
  let measuring: Promise<void> = Promise.resolve();
  const failures = new Counter({
    name: `bytegate_${what}_roundtrip_failures_total`,
    help: `Scrapes whose ${what} round trip (${command}) failed or took over ${timeoutMs} ms`,
    registers: [],
    async collect() {
      await measuring;
    },
  });
  new Gauge({
    name: `bytegate_${what}_roundtrip_seconds`,
    help: `Time of one ${command} to ${what === 'redis' ? 'Redis' : 'the database'} at this scrape; NaN when it failed or timed out`,
    registers: [registry],
    collect() {
      measuring = probe().then((seconds) => {
        if (seconds === null) {
          failures.inc();
        }
        this.set(seconds ?? Number.NaN);
      });
      return measuring;
    },
  });
  // Registered after the gauge, so that a scrape starts the probe before the counter waits for it.
  registry.registerMetric(failures);
}

/** A counter whose total lives elsewhere: set to it at each scrape (it only ever grows there). */
function counterOf<Label extends string>(
  registry: Registry,
  name: string,
  help: string,
  label: Label,
  read: () => Sample<Label>[] | null,
): void {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, value } of read() ?? []) {
        this.inc(labels, value);
      }
    },
  });
}

function registerGatewayMetrics(registry: Registry, readGateway: () => GatewayStats | null): void {
  const read = () => {
    const stats = readGateway();
    return stats ? gatewaySamples(stats) : null;
  };
  new Gauge({
    name: 'bytegate_gateway_connections_open',
    help: 'Client connections open now, by the protocol of their first request (http: forward requests)',
    labelNames: ['protocol'],
    registers: [registry],
    collect() {
      for (const { labels, value } of read()?.connectionsOpen ?? []) {
        this.set(labels, value);
      }
    },
  });
  new Gauge({
    name: 'bytegate_gateway_connections_authenticating',
    help: 'Client connections accepted and not yet authenticated',
    registers: [registry],
    collect() {
      this.set(readGateway()?.authenticating ?? 0);
    },
  });
  counterOf(
    registry,
    'bytegate_gateway_connections_total',
    'Client connections that made a first request, by its protocol',
    'protocol',
    () => read()?.connectionsTotal ?? null,
  );
  counterOf(
    registry,
    'bytegate_gateway_refusals_total',
    "Refusals the gateway sent, by error code (the gateway's error catalogue)",
    'code',
    () => read()?.refusals ?? null,
  );
  counterOf(
    registry,
    'bytegate_gateway_bytes_relayed_total',
    'Bytes crossing client sockets as billed (before the 2x of target filters), by direction',
    'direction',
    () => read()?.bytesRelayed ?? null,
  );
}
