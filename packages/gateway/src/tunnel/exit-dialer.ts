import { connect, type Socket } from 'node:net';
import type { AgentCarries } from '../agents/agent-link.ts';
import type { StickySessions } from '../routing/sticky-sessions.ts';
import type { SessionDirectory } from '../shared-state.ts';
import type { Exit, GatewayStore } from '../store.ts';
import type { SupplyPreference } from '../supply/source.ts';
import type { SourceHealth } from '../supply/source-health.ts';
import { Deadlines } from './deadlines.ts';
import { isLocalPortTaken, LocalPorts } from './local-ports.ts';
import { connectTarget } from './relay.ts';
import { connectViaUpstream } from './upstream.ts';

/** Where the outcome of each connection opened through an exit is told (ExitHealth; a dialer). */
export interface DialOutcomes {
  opened(exitId: string, connectMs: number): void;
  failed(exitId: string, error: unknown): void;
}

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
  exitHealth?: DialOutcomes | undefined;
  /** Each source's health from its dials, which the routing weighs sources by. */
  sourceHealth?: SourceHealth | undefined;
  /** Sources by weight and health (cost breaks ties), or the cheapest first. */
  supplyPreference?: SupplyPreference | undefined;
}

/**
 * Fails a TCP connection that has not opened within `timeoutMs`: a target that drops SYNs would
 * otherwise hold the client for the OS's two minutes before it hears anything. With `health`, the
 * outcome is counted for exit `exitId`: opened (and how long it took) or failed (and why).
 */
export function limitConnectTime(
  socket: Socket,
  timeoutMs: number,
  health?: DialOutcomes,
  exitId = '',
): void {
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
export const PORT_TRIES = 3;

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
export function whenConnected(socket: Socket): Promise<Socket> {
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
  options: {
    timeoutMs: number;
    isForRelay: boolean;
    health?: DialOutcomes | undefined;
    /** The target's name as the client gave it: an agent resolves it itself, where it is. */
    host?: string | undefined;
    /** Plain HTTP forwarded in clear (an agent's partner may refuse it), or an opaque tunnel. */
    carries?: AgentCarries | undefined;
  },
): Socket | Promise<Socket> {
  const { timeoutMs, health } = options;
  if (exit.kind !== 'direct') {
    const opening =
      exit.kind === 'upstream'
        ? connectViaUpstream(exit.upstream, address, port, timeoutMs)
        : exit.link.open(options.host ?? address, port, { timeoutMs, carries: options.carries ?? 'tunnel' });
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
  host?: string,
): Promise<Socket> {
  const opened = openExit(exit, address, port, { timeoutMs, isForRelay: false, host });
  return opened instanceof Promise ? opened : whenConnected(opened);
}
