import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { TargetPool } from './http1/target-pool.ts';
import { type HttpProxyDeps, handleHttpConnection } from './listeners/http-proxy.ts';
import { handleSocks5 } from './listeners/socks5.ts';
import { DEFAULT_BLOCKED_HOSTS, type DomainSet } from './policy/blocked-hosts.ts';
import { DEFAULT_OPEN_PORTS } from './policy/target-policy.ts';
import { StickySessions } from './routing/sticky-sessions.ts';
import type { GatewayStore } from './store.ts';
import { EXIT_CONNECT_TIMEOUT_MS } from './tunnel/connect-exit.ts';
import { ThreadLimits } from './tunnel/thread-limits.ts';
import { UsageMeter } from './tunnel/usage-meter.ts';

/**
 * How often open connections are metered and checked against the plan's traffic. A plan that runs out
 * mid-connection is cut within this interval: its overdraft is at most what its open connections carry
 * in 250 ms, and that overdraft is billed.
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
}

export interface ListeningPorts {
  httpPort: number;
  socksPort: number | undefined;
  stickyPorts: PortRange | undefined;
}

export interface Gateway {
  meter: UsageMeter;
  threads: ThreadLimits;
  /** Starts the listeners; answers the ports they really got. */
  listen(): Promise<ListeningPorts>;
  close(): Promise<void>;
}

function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
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
  const meter = new UsageMeter();
  const threads = new ThreadLimits();
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
    stickyPortOf: (socket) => {
      const port = socket.localPort;
      return sticky && port !== undefined && port >= sticky.first && port <= sticky.last ? port : undefined;
    },
  };
  const http = createTrackedServer((socket) => handleHttpConnection(deps, socket));
  const tcpServers: Array<{ server: Server; sockets: Set<Socket> }> = [];
  if (settings.socksPort !== undefined) {
    tcpServers.push(createTrackedServer((socket) => void handleSocks5(deps, socket)));
  }
  // A sticky port speaks both protocols: a SOCKS5 greeting starts with 0x05, an HTTP request never does.
  const stickyServers = sticky
    ? Array.from({ length: sticky.last - sticky.first + 1 }, () =>
        createTrackedServer((socket) => {
          socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
          socket.once('data', (first: Buffer) => {
            socket.setTimeout(0);
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
        meter.enforceTraffic((planId) => store.getPlanById(planId)?.trafficLeftBytes);
      }, SAMPLE_EVERY_MS);
      sampler.unref();
      return ports;
    },
    close,
  };
}
