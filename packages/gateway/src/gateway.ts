import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { isStillAdmitted } from './admission.ts';
import { TargetPool } from './http1/target-pool.ts';
import { type HttpProxyDeps, handleHttpConnection } from './listeners/http-proxy.ts';
import { handleSocks5 } from './listeners/socks5.ts';
import { DEFAULT_BLOCKED_HOSTS, type DomainSet } from './policy/blocked-hosts.ts';
import { DEFAULT_OPEN_PORTS } from './policy/target-policy.ts';
import { errorReply } from './replies.ts';
import { StickySessions } from './routing/sticky-sessions.ts';
import type { GatewayStore, PlanAccess } from './store.ts';
import { EXIT_CONNECT_TIMEOUT_MS } from './tunnel/connect-exit.ts';
import { endWith } from './tunnel/end-with.ts';
import {
  DEFAULT_PENDING_LIMITS,
  PendingConnections,
  type PendingLimits,
  type PendingRefusal,
} from './tunnel/pending-connections.ts';
import { ThreadLimits } from './tunnel/thread-limits.ts';
import { UsageMeter } from './tunnel/usage-meter.ts';

/**
 * How often open connections are metered (billed as they go) and checked: a plan that was deactivated,
 * changed its password or lost an allowlisted address closes its connections within this interval of
 * the store learning of it. Traffic does not wait for it: relays forward only out of traffic granted
 * ahead (UsageMeter.allow), so a plan stops at its limit at any speed.
 */
export const SAMPLE_EVERY_MS = 250;

/** A client that connects to a sticky port and sends nothing is dropped after this. */
const FIRST_BYTE_TIMEOUT_MS = 10_000;

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
}

/** The kernel's queue of connections not yet accepted (Node's default is 511; Linux caps it at somaxconn). */
const LISTEN_BACKLOG = 4096;
/** What a refused connection is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 1;

const PENDING_MESSAGES: Record<PendingRefusal, string> = {
  TOO_MANY_CONNECTIONS: 'Too many connections from your address are still authenticating; retry shortly',
  OVERLOADED: 'The gateway is busy; retry shortly',
};

/**
 * Turns a connection away before reading it, in the protocol of its port: an HTTP refusal with
 * Retry-After, or a SOCKS5 "no acceptable method" (the answer to any greeting).
 */
function turnAway(socket: Socket, refusal: PendingRefusal, protocol: 'http' | 'socks5'): void {
  socket.on('error', () => socket.destroy());
  endWith(
    socket,
    protocol === 'http'
      ? errorReply(refusal, PENDING_MESSAGES[refusal], RETRY_AFTER_SECONDS)
      : Buffer.from([0x05, 0xff]),
  );
}

export interface ListeningPorts {
  httpPort: number;
  socksPort: number | undefined;
  stickyPorts: PortRange | undefined;
}

export interface Gateway {
  meter: UsageMeter;
  threads: ThreadLimits;
  pending: PendingConnections;
  /** Starts the listeners; answers the ports they really got. */
  listen(): Promise<ListeningPorts>;
  close(): Promise<void>;
}

function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** A TCP listener that tracks its sockets, so close() can end them all. */
function createTrackedServer(onSocket: (socket: Socket) => void): { server: Server; sockets: Set<Socket> } {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  return { server, sockets };
}

/** The proxy engine: listeners over one store, one meter and one set of thread limits. */
export function createGateway(store: GatewayStore, settings: GatewaySettings): Gateway {
  const meter = new UsageMeter((planId) => store.getPlanById(planId)?.trafficLeftBytes);
  const threads = new ThreadLimits();
  const pending = new PendingConnections({ ...DEFAULT_PENDING_LIMITS, ...settings.pendingLimits });
  const sticky = settings.stickyPorts;
  const deps: HttpProxyDeps = {
    store,
    threads,
    meter,
    policy: {
      allowPrivateTargets: settings.allowPrivateTargets,
      openPorts: settings.openPorts ?? DEFAULT_OPEN_PORTS,
      blockedHosts: settings.blockedHosts ?? DEFAULT_BLOCKED_HOSTS,
    },
    sessions: new StickySessions(settings.now),
    defaultSessionTtlMinutes: settings.defaultSessionTtlMinutes ?? 30,
    exitConnectTimeoutMs: settings.exitConnectTimeoutMs ?? EXIT_CONNECT_TIMEOUT_MS,
    targetPool: new TargetPool(),
    pending,
    stickyPortOf: (socket) => {
      const port = socket.localPort;
      return sticky && port !== undefined && port >= sticky.first && port <= sticky.last ? port : undefined;
    },
  };
  const http = createTrackedServer((socket) => {
    const refusal = pending.enter(socket);
    if (refusal) {
      turnAway(socket, refusal, 'http');
    } else {
      handleHttpConnection(deps, socket);
    }
  });
  const tcpServers: Array<{ server: Server; sockets: Set<Socket> }> = [];
  if (settings.socksPort !== undefined) {
    tcpServers.push(
      createTrackedServer((socket) => {
        const refusal = pending.enter(socket);
        if (refusal) {
          turnAway(socket, refusal, 'socks5');
        } else {
          void handleSocks5(deps, socket);
        }
      }),
    );
  }
  // A sticky port speaks both protocols: a SOCKS5 greeting starts with 0x05, an HTTP request never does.
  const stickyServers = sticky
    ? Array.from({ length: sticky.last - sticky.first + 1 }, () =>
        createTrackedServer((socket) => {
          const refusal = pending.enter(socket);
          socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
          socket.once('data', (first: Buffer) => {
            socket.setTimeout(0);
            if (refusal) {
              turnAway(socket, refusal, first[0] === 0x05 ? 'socks5' : 'http');
              return;
            }
            socket.pause();
            socket.unshift(first);
            if (first[0] === 0x05) {
              void handleSocks5(deps, socket, deps.stickyPortOf(socket));
            } else {
              handleHttpConnection(deps, socket);
              socket.resume();
            }
          });
          socket.on('error', () => socket.destroy());
        }),
      )
    : [];

  // Long tunnels are billed as they go, not only when they close, and are cut when the traffic runs out.
  let sampler: NodeJS.Timeout | undefined;
  const close = async () => {
    clearInterval(sampler);
    deps.targetPool.destroyAll();
    const closing: Promise<void>[] = [];
    for (const { server, sockets } of [http, ...tcpServers, ...stickyServers]) {
      for (const socket of sockets) {
        socket.destroy();
      }
      if (server.listening) {
        closing.push(new Promise<void>((resolve) => server.close(() => resolve())));
      }
    }
    await Promise.all(closing);
  };
  const listenAll = async (): Promise<ListeningPorts> => {
    const httpPort = await listenOn(http.server, settings.httpPort, settings.host);
    const socks = tcpServers[0];
    const socksPort =
      socks && settings.socksPort !== undefined
        ? await listenOn(socks.server, settings.socksPort, settings.host)
        : undefined;
    if (sticky) {
      // Settled, not raced: a port that is taken must not leave the others half-bound behind close().
      const bound = await Promise.allSettled(
        stickyServers.map(({ server }, i) => listenOn(server, sticky.first + i, settings.host)),
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
    async listen() {
      let ports: ListeningPorts;
      try {
        ports = await listenAll();
      } catch (error) {
        // One port already taken stops the whole gateway, with nothing left listening.
        await close();
        throw error;
      }
      sampler = setInterval(() => {
        meter.sampleOpen();
        // A plan that ran out, was deactivated (a deleted account) or changed its password ends its
        // open connections here: within this interval of the store learning of it.
        const isPlanLive = new Map<string, boolean>();
        meter.closeWhere((planId, socket) => {
          const plan = store.getPlanById(planId);
          let isLive = isPlanLive.get(planId);
          if (isLive === undefined) {
            isLive = plan?.isActive === true && plan.trafficLeftBytes - meter.pendingBilledBytes(planId) > 0;
            isPlanLive.set(planId, isLive);
          }
          return !isLive || !isStillAdmitted(store, socket, plan as PlanAccess);
        });
      }, SAMPLE_EVERY_MS);
      sampler.unref();
      return ports;
    },
    close,
  };
}
