import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { isStillAdmitted } from './admission.ts';
import { AuthThrottle, type AuthThrottleLimits } from './auth-throttle.ts';
import { ClientSession } from './client-session.ts';
import { countClosed, createGatewayCounters, type GatewayStats } from './counters.ts';
import { type EngineContext, turnAway } from './engine-context.ts';
import { TargetPool } from './http1/target-pool.ts';
import { handleHttpConnection } from './listeners/http-proxy.ts';
import { handleSocks5 } from './listeners/socks5.ts';
import { handleStickyConnection } from './listeners/sticky.ts';
import { DEFAULT_BLOCKED_HOSTS, type DomainSet } from './policy/blocked-hosts.ts';
import { DEFAULT_OPEN_PORTS } from './policy/target-policy.ts';
import { StickySessions } from './routing/sticky-sessions.ts';
import type { SharedGatewayState, ThreadSlots } from './shared-state.ts';
import { type GatewayStore, type PlanAccess, proxyUserIdOfKey } from './store.ts';
import type { SupplyPreference } from './supply/source.ts';
import { SourceHealth } from './supply/source-health.ts';
import { EXIT_CONNECT_TIMEOUT_MS } from './tunnel/exit-dialer.ts';
import { ExitHealth } from './tunnel/exit-health.ts';
import {
  DEFAULT_PENDING_LIMITS,
  PendingConnections,
  type PendingLimits,
} from './tunnel/pending-connections.ts';
import { ThreadLimits } from './tunnel/thread-limits.ts';
import { type GatewayLog, UsageFlusher } from './tunnel/usage-flush.ts';
import { UsageMeter } from './tunnel/usage-meter.ts';

/**
 * How often open connections are metered (billed as they go) and checked: a plan that was deactivated,
 * changed its password or lost an allowlisted address closes its connections within this interval of
 * the store learning of it. Traffic does not wait for it: relays forward only out of traffic granted
 * ahead (UsageMeter.allow), so a plan stops at its limit at any speed.
 */
export const SAMPLE_EVERY_MS = 250;

export interface PortRange {
  first: number;
  last: number;
}

export interface GatewaySettings {
  host: string;
  /** 0 picks a free port (tests). */
  httpPort: number;
  /** 0 picks a free port; undefined runs no SOCKS5 listener. */
  socksPort?: number | undefined;
  /** Each port is one sticky session slot, HTTP or SOCKS5 told apart by the first byte. */
  stickyPorts?: PortRange | undefined;
  allowPrivateTargets: boolean;
  openPorts?: ReadonlySet<number>;
  /** Domains refused by default; DEFAULT_BLOCKED_HOSTS when not given. */
  blockedHosts?: DomainSet;
  /** Sticky window in minutes when the username has no sessttl (default 30, SPEC section 9). */
  defaultSessionTtlMinutes?: number;
  /** How long an exit may take to reach a target before it counts as failed (default 10 s). */
  exitConnectTimeoutMs?: number;
  /** The clock sticky windows are measured on (tests move it instead of waiting minutes). */
  now?: () => number;
  /** Caps and deadline for connections that have not authenticated (DEFAULT_PENDING_LIMITS). */
  pendingLimits?: Partial<PendingLimits>;
  /**
   * How often metered usage is flushed to the store once listening (the server: every second), and
   * flushed once more by close(). Unset, usage waits in the meter for flushUsage() (tests read it there).
   */
  usageFlushEveryMs?: number;
  /** Where failed flushes are reported (the console when not given), and refusals at debug. */
  log?: GatewayLog;
  /** Thread slots, traffic and sessions shared with other gateway processes (in-process when absent). */
  shared?: SharedGatewayState;
  /** How failed proxy logins are slowed and refused (DEFAULT_AUTH_THROTTLE). */
  authThrottle?: Partial<AuthThrottleLimits>;
  /** How the routing orders a pool's sources: by weight and health (the default), or cheapest first. */
  supplyPreference?: SupplyPreference;
}

/** The kernel's queue of connections not yet accepted (Node's default is 511; Linux caps it at somaxconn). */
const LISTEN_BACKLOG = 4096;

const consoleLog: GatewayLog = {
  warn: (details, message) => console.warn(message, details.err),
  error: (details, message) => console.error(message, details.err),
};

export interface ListeningPorts {
  httpPort: number;
  socksPort: number | undefined;
  stickyPorts: PortRange | undefined;
}

/** How a drain ended. */
export interface DrainReport {
  /** Client connections open when it began. */
  openAtStart: number;
  /** Still open when the grace ran out, and cut. */
  cutConnections: number;
  /** Whether the last flush stored everything metered (always true without usageFlushEveryMs). */
  isUsageStored: boolean;
}

/** The connections one gateway process holds now (the console's "current connections"). */
export interface GatewayConnections {
  /** Client connections open on every port, authenticated or not. */
  open: number;
  /** Of those, the ones still authenticating. */
  authenticating: number;
  /** Thread slots held per plan: its admitted connections. */
  byPlan: ReadonlyMap<string, number>;
}

export interface Gateway {
  meter: UsageMeter;
  threads: ThreadSlots;
  pending: PendingConnections;
  /** Per exit: connections opened through it, failed, and their connect time; drained by the server. */
  exitHealth: ExitHealth;
  /** Per source of supply: dials opened and failed, and alarms for staff; drained by the server. */
  sourceHealth: SourceHealth;
  /** What this process holds open now. */
  connections(): GatewayConnections;
  /** Live counters for metrics (connections and refusals by kind, bytes relayed): cheap to read. */
  stats(): GatewayStats;
  /** Starts the listeners (and the usage flush, when set); answers the ports they really got. */
  listen(): Promise<ListeningPorts>;
  /**
   * One flush of metered usage to the store now, after the one under way (never rejects: a failure
   * keeps the usage).
   */
  flushUsage(): Promise<void>;
  /** Stops the listeners and ends every connection; with usageFlushEveryMs, then flushes what is left. */
  close(): Promise<void>;
  /**
   * Stops the listeners at once and lets the connections finish: tunnels and requests under way run on
   * (metered and checked as ever), a keep-alive connection waiting for a request is closed now and a
   * busy one after its answer; whatever is open after `graceMs` is cut. Then as close().
   */
  drain(graceMs: number): Promise<DrainReport>;
}

/**
 * Sets TCP_NODELAY on a listening socket, which Linux copies to every socket it accepts: one setsockopt
 * for the listener instead of one per connection. False when Node's handle offers no way to (the
 * connections then set it themselves).
 */
function setListenerNoDelay(server: Server): boolean {
  const handle = (server as unknown as { _handle?: { setNoDelay?: (enable: boolean) => number } })._handle;
  if (process.platform !== 'linux' || typeof handle?.setNoDelay !== 'function') {
    return false;
  }
  return handle.setNoDelay(true) === 0;
}

/** Listening sockets whose accepted sockets inherit TCP_NODELAY (setListenerNoDelay). */
const noDelayListeners = new WeakSet<Server>();

/** Whether a socket accepted by `server` already has TCP_NODELAY. */
export function hasInheritedNoDelay(server: Server | null): boolean {
  return server !== null && noDelayListeners.has(server);
}

function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      if (setListenerNoDelay(server)) {
        noDelayListeners.add(server);
      }
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** The proxy engine: listeners over one store, one meter and one set of thread limits. */
export function createGateway(store: GatewayStore, settings: GatewaySettings): Gateway {
  // Traffic left under a key: a plan's, or a proxy user's cap (what is left of it in its period).
  const capOf = (key: string) => {
    const proxyUserId = proxyUserIdOfKey(key);
    return proxyUserId === null ? undefined : store.getProxyUserById?.(proxyUserId)?.cap;
  };
  const leftBytes = (key: string) =>
    proxyUserIdOfKey(key) === null ? store.getPlanById(key)?.trafficLeftBytes : capOf(key)?.leftBytes;
  const shared = settings.shared;
  const meter: UsageMeter = new UsageMeter(
    leftBytes,
    shared?.allowance?.((planId: string): number => meter.pendingBilledBytes(planId)),
    (userKey) => capOf(userKey) !== undefined,
  );
  const threads = shared?.threads ?? new ThreadLimits();
  const pending = new PendingConnections({ ...DEFAULT_PENDING_LIMITS, ...settings.pendingLimits });
  const flusher = new UsageFlusher(meter, store, settings.log ?? consoleLog);
  const exitHealth = new ExitHealth();
  const sourceHealth = new SourceHealth(settings.now);
  const sticky = settings.stickyPorts;
  const counters = createGatewayCounters();
  const ctx: EngineContext = {
    store,
    threads,
    meter,
    policy: {
      allowPrivateTargets: settings.allowPrivateTargets,
      openPorts: settings.openPorts ?? DEFAULT_OPEN_PORTS,
      blockedHosts: settings.blockedHosts ?? DEFAULT_BLOCKED_HOSTS,
    },
    sessions: new StickySessions(settings.now),
    directory: shared?.sessions,
    defaultSessionTtlMinutes: settings.defaultSessionTtlMinutes ?? 30,
    exitConnectTimeoutMs: settings.exitConnectTimeoutMs ?? EXIT_CONNECT_TIMEOUT_MS,
    exitHealth,
    sourceHealth,
    supplyPreference: settings.supplyPreference,
    targetPool: new TargetPool(),
    pending,
    counters,
    log: settings.log,
    throttle: new AuthThrottle(settings.authThrottle, shared?.authFailures),
  };

  // Every open client connection, on every port: close() ends them, the sampler checks them.
  const clients = new Map<Socket, ClientSession>();
  /** Called once no client connection is left (close and drain wait for it). */
  let onNoClients: (() => void) | null = null;
  const noClients = () =>
    clients.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const before = onNoClients;
          onNoClients = () => {
            before?.();
            resolve();
          };
        });
  /** A TCP listener whose connections each get a ClientSession (`stickyPort`: the port is a session). */
  const createClientServer = (stickyPort: number | undefined, onClient: (session: ClientSession) => void) =>
    createServer(function (this: Server, socket) {
      const session = new ClientSession(socket, stickyPort, hasInheritedNoDelay(this));
      clients.set(socket, session);
      socket.once('close', () => {
        clients.delete(socket);
        countClosed(counters, session);
        if (clients.size === 0 && onNoClients) {
          const notify = onNoClients;
          onNoClients = null;
          notify();
        }
      });
      onClient(session);
    });

  const http = createClientServer(undefined, (session) => {
    const refusal = pending.enter(session.socket);
    if (refusal) {
      turnAway(counters, session.socket, refusal, 'http');
    } else {
      handleHttpConnection(ctx, session);
    }
  });
  const socks =
    settings.socksPort === undefined
      ? undefined
      : createClientServer(undefined, (session) => {
          const refusal = pending.enter(session.socket);
          if (refusal) {
            turnAway(counters, session.socket, refusal, 'socks5');
          } else {
            void handleSocks5(ctx, session);
          }
        });
  const stickyServers = sticky
    ? Array.from({ length: sticky.last - sticky.first + 1 }, (_, i) =>
        createClientServer(sticky.first + i, (session) =>
          handleStickyConnection(ctx, session, pending.enter(session.socket)),
        ),
      )
    : [];

  // Long tunnels are billed as they go, not only when they close, and are cut when the traffic runs out.
  let sampler: NodeJS.Timeout | undefined;
  let flushing: NodeJS.Timeout | undefined;
  let listenersClosed: Promise<unknown> | undefined;
  /** Closes every listener, once: no new connection from here on, on any port. */
  const stopAccepting = () => {
    listenersClosed ??= Promise.all(
      [http, ...(socks ? [socks] : []), ...stickyServers]
        .filter((server) => server.listening)
        .map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
    return listenersClosed;
  };
  const closeListeners = async () => {
    const closed = stopAccepting();
    clearInterval(sampler);
    clearInterval(flushing);
    ctx.targetPool.destroyAll();
    for (const socket of clients.keys()) {
      socket.destroy();
    }
    await closed;
    // Each connection's close has run: metered, and its thread slot given back.
    await noClients();
    threads.releaseAll();
  };
  const closeAndFlush = async () => {
    await closeListeners();
    // The connections just ended were sampled as they closed: their last bytes go out too.
    return settings.usageFlushEveryMs === undefined ? true : await flusher.flushLast();
  };
  const listenAll = async (): Promise<ListeningPorts> => {
    const httpPort = await listenOn(http, settings.httpPort, settings.host);
    const socksPort =
      socks && settings.socksPort !== undefined
        ? await listenOn(socks, settings.socksPort, settings.host)
        : undefined;
    if (sticky) {
      // Settled, not raced: a port that is taken must not leave the others half-bound behind close().
      const bound = await Promise.allSettled(
        stickyServers.map((server, i) => listenOn(server, sticky.first + i, settings.host)),
      );
      const failed = bound.find((result) => result.status === 'rejected');
      if (failed) {
        throw failed.reason;
      }
    }
    return { httpPort, socksPort, stickyPorts: sticky };
  };
  return {
    meter,
    threads,
    pending,
    exitHealth,
    sourceHealth,
    connections: () => ({
      open: clients.size,
      authenticating: pending.size,
      byPlan: plansOnly(threads.perPlan()),
    }),
    stats: () => ({ ...counters, relayed: meter.relayed, authenticating: pending.size }),
    async listen() {
      let ports: ListeningPorts;
      try {
        ports = await listenAll();
      } catch (error) {
        // One port already taken stops the whole gateway, with nothing left listening.
        await closeListeners();
        throw error;
      }
      sampler = setInterval(() => {
        meter.sampleOpen();
        // A plan that ran out, was deactivated (a deleted account) or changed its password ends its
        // open connections here: within this interval of the store learning of it.
        // A proxy user disabled, deleted, given a new password or at its cap ends its own the same way.
        const isLive = new Map<string, boolean>();
        const isKeyLive = (key: string) => {
          let live = isLive.get(key);
          if (live === undefined) {
            const cap = capOf(key);
            if (proxyUserIdOfKey(key) !== null) {
              live = cap === undefined || cap.leftBytes - meter.pendingBilledBytes(key) > 0;
            } else {
              const plan = store.getPlanById(key);
              live = plan?.isActive === true && plan.trafficLeftBytes - meter.pendingBilledBytes(key) > 0;
            }
            isLive.set(key, live);
          }
          return live;
        };
        meter.closeWhere((planId, socket, userKey) => {
          if (!isKeyLive(planId) || (userKey !== undefined && !isKeyLive(userKey))) {
            return true;
          }
          const session = clients.get(socket);
          const plan = store.getPlanById(planId);
          return session !== undefined && !isStillAdmitted(store, session, plan as PlanAccess);
        });
      }, SAMPLE_EVERY_MS);
      sampler.unref();
      if (settings.usageFlushEveryMs !== undefined) {
        flushing = setInterval(() => void flusher.flush(), settings.usageFlushEveryMs);
        flushing.unref();
      }
      return ports;
    },
    // After the flush under way, if any: it may have drained before the caller's last bytes were metered.
    flushUsage: async () => {
      await flusher.flushLast();
    },
    async close() {
      await closeAndFlush();
    },
    async drain(graceMs) {
      void stopAccepting();
      const openAtStart = clients.size;
      for (const session of clients.values()) {
        if (session.httpReader) {
          session.httpReader.closeWhenIdle();
        } else if (session.socket.bytesRead === 0) {
          // Accepted and silent (a sticky or SOCKS5 port): no work under way.
          session.socket.destroy();
        }
      }
      let deadline: NodeJS.Timeout | undefined;
      await Promise.race([
        noClients(),
        new Promise<void>((resolve) => {
          deadline = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(deadline);
      const cutConnections = clients.size;
      const isUsageStored = await closeAndFlush();
      return { openAtStart, cutConnections, isUsageStored };
    },
  };
}

/** Connections per plan, without the proxy users' own counts (the same connections, again). */
function plansOnly(counts: ReadonlyMap<string, number>): ReadonlyMap<string, number> {
  return new Map([...counts].filter(([key]) => proxyUserIdOfKey(key) === null));
}
