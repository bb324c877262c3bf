import { connect, type Socket } from 'node:net';
import type { Targeting } from '@bytegate/contracts/targeting';
import { GatewayError } from '../errors.ts';
import type { ExitIndex } from '../routing/exit-index.ts';
import { chooseExit, pickExit, type StickyChoice, sessionKey, sessionTtlMs } from '../routing/select-exit.ts';
import type { StickySessions } from '../routing/sticky-sessions.ts';
import type { SessionDirectory } from '../shared-state.ts';
import type { Exit, GatewayStore, PlanAccess, ProxyUserAccess } from '../store.ts';
import { Deadlines } from './deadlines.ts';
import type { ExitHealth } from './exit-health.ts';
import { isLocalPortTaken, LocalPorts } from './local-ports.ts';
import { connectTarget } from './relay.ts';
import { connectViaUpstream } from './upstream.ts';

/** The default of the gateway's exitConnectTimeoutMs. */
export const EXIT_CONNECT_TIMEOUT_MS = 10_000;

/** What every dialer of one engine shares. */
export interface DialSettings {
  store: GatewayStore;
  sessions: StickySessions;
  /** Where a session that moves to another exit tells the other gateways (none in-process). */
  directory?: SessionDirectory | undefined;
  /** The sticky window when neither the username's sessttl nor the plan's rotation interval gives one. */
  defaultSessionTtlMinutes: number;
  /** How long an exit may take to reach a target; the OS alone would wait about two minutes. */
  exitConnectTimeoutMs: number;
  /** Where each connection opened (or not) through an exit is counted; none for the exit probe. */
  exitHealth?: ExitHealth | undefined;
}

/**
 * Fails a TCP connection that has not opened within `timeoutMs`: a target that drops SYNs would
 * otherwise hold the client for the OS's two minutes before it hears anything. With `health`, the
 * outcome is counted for exit `exitId`: opened (and how long it took) or failed (and why).
 */
export function limitConnectTime(socket: Socket, timeoutMs: number, health?: ExitHealth, exitId = ''): void {
  const deadlines = connectDeadlines(timeoutMs);
  // A socket that closes before it connects keeps its entry until it falls due: destroying it then is a
  // no-op, and it saves a listener per connection.
  deadlines.set(socket);
  if (!health) {
    socket.once('connect', () => deadlines.delete(socket));
    return;
  }
  const startedAt = Date.now();
  // A local port taken towards this target says nothing of the exit: the dialer tries another port.
  const onError = (error: Error) => {
    if (!isLocalPortTaken(error)) {
      health.failed(exitId, error);
    }
  };
  socket.once('error', onError);
  socket.once('connect', () => {
    deadlines.delete(socket);
    socket.off('error', onError);
    health.opened(exitId, Date.now() - startedAt);
  });
}

/** Ports for exits bound to a local address (local-ports.ts): chosen here, not searched by bind(). */
export const localPorts = new LocalPorts();
/** A connection whose local port was taken towards its target is tried again this often on other ports. */
const PORT_TRIES = 3;

/** Connect deadlines by their length (one per setting in use), each on one timer. */
const connectDeadlinesByLength = new Map<number, Deadlines<Socket>>();

function connectDeadlines(timeoutMs: number): Deadlines<Socket> {
  let deadlines = connectDeadlinesByLength.get(timeoutMs);
  if (!deadlines) {
    deadlines = new Deadlines(timeoutMs, (socket) => {
      if (!socket.destroyed) {
        socket.destroy(new Error(`no connection within ${timeoutMs} ms`));
      }
    });
    connectDeadlinesByLength.set(timeoutMs, deadlines);
  }
  return deadlines;
}

/** A direct exit's socket once it has connected (destroyed, and rejected, when it fails). */
function whenConnected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

/**
 * A connection from `exit` to address:port. A direct one is answered at once, still connecting (a
 * failure arrives as its 'error'), read by the tunnel relay's reused memory when `isForRelay`, else by
 * 'data' events. An upstream one is answered once its proxy opened the tunnel, paused so that no early
 * byte is lost. With `health`, the outcome is counted for the exit.
 */
export function openExit(
  exit: Exit,
  address: string,
  port: number,
  options: { timeoutMs: number; isForRelay: boolean; health?: ExitHealth | undefined },
): Socket | Promise<Socket> {
  const { timeoutMs, health } = options;
  if (exit.kind === 'upstream') {
    const opening = connectViaUpstream(exit.upstream, address, port, timeoutMs);
    if (!health) {
      return opening;
    }
    const startedAt = Date.now();
    return opening.then(
      (socket) => {
        health.opened(exit.id, Date.now() - startedAt);
        return socket;
      },
      (error: unknown) => {
        health.failed(exit.id, error);
        throw error;
      },
    );
  }
  const { localAddress } = exit;
  const target = localAddress
    ? { host: address, port, localAddress, localPort: localPorts.take(localAddress) }
    : { host: address, port };
  const socket = options.isForRelay ? connectTarget(target) : connect(target);
  socket.setNoDelay(true);
  limitConnectTime(socket, timeoutMs, health, exit.id);
  return socket;
}

/**
 * An open connection through `exit` to address:port (the exit probe's way out, as the gateway's own):
 * a direct exit bound to its local address, an upstream one through its proxy. Read by 'data' events.
 */
export function connectThroughExit(
  exit: Exit,
  address: string,
  port: number,
  timeoutMs: number,
): Promise<Socket> {
  const opened = openExit(exit, address, port, { timeoutMs, isForRelay: false });
  return opened instanceof Promise ? opened : whenConnected(opened);
}

/**
 * One connection's (or one forward request's) way out through its plan's exits: the first exit (the
 * session's, when a `sessid` or a sticky port names one, else a rotating pick) and, when that fails,
 * one other exit, to which a session then moves. Opens a direct exit from this host (bound to its
 * local address) and an upstream one through its proxy. It is its own StickyChoice, so a dial costs
 * one object.
 */
export class ExitDialer implements StickyChoice {
  /** The exit tried last. */
  exit: Exit | undefined;
  /** Another exit than the first was tried: there is no third. */
  hasMovedOn = false;
  readonly sessions: StickySessions;
  readonly planId: string;
  readonly defaultTtlMinutes: number;
  private readonly exits: ExitIndex;
  private readonly timeoutMs: number;
  private readonly health: ExitHealth | undefined;
  private readonly directory: SessionDirectory | undefined;

  constructor(
    settings: DialSettings,
    admitted: { plan: PlanAccess; proxyUser?: ProxyUserAccess | undefined; userKey?: string | undefined },
    private readonly targeting: Targeting,
    readonly stickyPort: number | undefined,
  ) {
    const { plan, proxyUser } = admitted;
    this.exits = settings.store.exitIndex(plan.poolType);
    this.sessions = settings.sessions;
    // A proxy user's sessions are its own: a reseller's customers naming the same sessid never meet.
    this.planId = admitted.userKey ?? plan.planId;
    // The saved rotation interval (the proxy user's, else the plan's) is its sticky window.
    this.defaultTtlMinutes =
      (proxyUser?.saved ?? plan.saved)?.rotationMinutes ?? settings.defaultSessionTtlMinutes;
    this.timeoutMs = settings.exitConnectTimeoutMs;
    this.health = settings.exitHealth;
    this.directory = settings.directory;
  }

  /** The first exit: the session's, or a new pick (NO_RAY when none matches the targeting). */
  first(): Exit {
    this.exit = chooseExit(this.exits, this.targeting, this);
    return this.exit;
  }

  /** The exit after the last one failed: another matching one when there is one; a session moves to it. */
  moveOn(): Exit {
    const next = pickExit(this.exits, this.targeting, this.exit?.id);
    const key = sessionKey(this, this.targeting);
    if (key) {
      const ttlMs = sessionTtlMs(this, this.targeting);
      this.sessions.bind(key, next, ttlMs);
      this.directory?.rebind(key, next.id, ttlMs);
    }
    this.hasMovedOn = true;
    this.exit = next;
    return next;
  }

  /** A connection from `exit` to address:port, counted in the exit's health (see openExit). */
  open(exit: Exit, address: string, port: number, isForRelay: boolean): Socket | Promise<Socket> {
    return openExit(exit, address, port, { timeoutMs: this.timeoutMs, isForRelay, health: this.health });
  }

  /**
   * An open connection for a tunnel (CONNECT, SOCKS5): through the first exit, else once through
   * another; NO_HOST_CONNECTION when both fail.
   */
  async openTunnel(address: string, port: number): Promise<Socket> {
    const first = this.first();
    try {
      return await this.openConnected(first, address, port);
    } catch {
      const second = this.moveOn();
      try {
        return await this.openConnected(second, address, port);
      } catch {
        throw new GatewayError('NO_HOST_CONNECTION', `Cannot connect to port ${port} of the target`);
      }
    }
  }

  private async openConnected(exit: Exit, address: string, port: number): Promise<Socket> {
    for (let tries = 1; ; tries++) {
      const opened = this.open(exit, address, port, true);
      try {
        return await (opened instanceof Promise ? opened : whenConnected(opened));
      } catch (error) {
        if (tries >= PORT_TRIES || !isLocalPortTaken(error)) {
          throw error;
        }
      }
    }
  }
}
