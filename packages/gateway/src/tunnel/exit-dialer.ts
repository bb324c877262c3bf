import { connect, type Socket } from 'node:net';
import type { Targeting } from '@bytegate/contracts/targeting';
import { GatewayError } from '../errors.ts';
import { chooseExit, pickExit, type StickyChoice, sessionKey, sessionTtlMs } from '../routing/select-exit.ts';
import type { StickySessions } from '../routing/sticky-sessions.ts';
import type { Exit, GatewayStore, PlanAccess } from '../store.ts';
import { connectTarget } from './relay.ts';
import { connectViaUpstream } from './upstream.ts';

/** The default of the gateway's exitConnectTimeoutMs. */
export const EXIT_CONNECT_TIMEOUT_MS = 10_000;

/** What every dialer of one engine shares. */
export interface DialSettings {
  store: GatewayStore;
  sessions: StickySessions;
  /** The sticky window when neither the username's sessttl nor the plan's rotation interval gives one. */
  defaultSessionTtlMinutes: number;
  /** How long an exit may take to reach a target; the OS alone would wait about two minutes. */
  exitConnectTimeoutMs: number;
}

/**
 * Fails a TCP connection that has not opened within `timeoutMs`: a target that drops SYNs would
 * otherwise hold the client for the OS's two minutes before it hears anything.
 */
export function limitConnectTime(socket: Socket, timeoutMs: number): void {
  const timer = setTimeout(
    () => socket.destroy(new Error(`no connection within ${timeoutMs} ms`)),
    timeoutMs,
  );
  socket.once('connect', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
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
  private readonly exits: readonly Exit[];
  private readonly timeoutMs: number;

  constructor(
    settings: DialSettings,
    plan: PlanAccess,
    private readonly targeting: Targeting,
    readonly stickyPort: number | undefined,
  ) {
    this.exits = settings.store.listExits(plan.poolType);
    this.sessions = settings.sessions;
    this.planId = plan.planId;
    // The plan's saved rotation interval is its sticky window.
    this.defaultTtlMinutes = plan.saved?.rotationMinutes ?? settings.defaultSessionTtlMinutes;
    this.timeoutMs = settings.exitConnectTimeoutMs;
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
      this.sessions.bind(key, next, sessionTtlMs(this, this.targeting));
    }
    this.hasMovedOn = true;
    this.exit = next;
    return next;
  }

  /**
   * A connection from `exit` to address:port. A direct one is answered at once, still connecting (a
   * failure arrives as its 'error'); it is read by the tunnel relay's reused memory when `isForRelay`,
   * else by 'data' events. An upstream one is answered once its proxy opened the tunnel, paused so that
   * no early byte is lost.
   */
  open(exit: Exit, address: string, port: number, isForRelay: boolean): Socket | Promise<Socket> {
    if (exit.kind === 'upstream') {
      return connectViaUpstream(exit.upstream, address, port, this.timeoutMs);
    }
    const options = { host: address, port, localAddress: exit.localAddress };
    const socket = isForRelay ? connectTarget(options) : connect(options);
    socket.setNoDelay(true);
    limitConnectTime(socket, this.timeoutMs);
    return socket;
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

  private openConnected(exit: Exit, address: string, port: number): Promise<Socket> {
    const opened = this.open(exit, address, port, true);
    return opened instanceof Promise ? opened : whenConnected(opened);
  }
}
