import type { Socket } from 'node:net';
import { Deadlines } from '../tunnel/deadlines.ts';
import { type ReadConsumer, targetReaderOf } from '../tunnel/relay.ts';

/** What a target connection's bytes and end are handed to while an exchange owns it. */
export interface TargetOwner {
  onData(chunk: Buffer): void;
  onEnd(): void;
  onClose(): void;
  /** The response body streams on to the client: bytes may come as views of reused memory. */
  takesViews?(): boolean;
  /** The client socket those views are written to. */
  client?: Socket;
  /** Reading may go on (no backpressure from the client, no wait for traffic). */
  mayRead?(): boolean;
}

/** An idle keep-alive connection is closed after this. */
const IDLE_MS = 30_000;
/** A connection that sends no byte for this long while a request waits on its answer is abandoned. */
const RESPONSE_IDLE_TIMEOUT_MS = 120_000;
/**
 * Idle connections' deadlines on one timer: arming a socket timeout at each return to the pool (and
 * disarming it at each use) would make a timer and a bound function per request.
 */
const idleDeadlines = new Deadlines<TargetConnection>(IDLE_MS, (connection) => connection.socket.destroy());
/** Idle connections kept per exit and target (more than the clients that use it at once is waste). */
const MAX_IDLE_PER_KEY = 256;

/**
 * A connection to a target (directly or through an upstream exit's tunnel) that forward requests
 * take turns on. Its listeners are set once and hand everything to its current owner.
 */
export class TargetConnection implements ReadConsumer {
  owner: TargetOwner | null = null;
  /** It carried an exchange before: a failure before any answer may be the keep-alive race. */
  isReused = false;

  constructor(
    readonly socket: Socket,
    readonly key: string,
    private readonly pool: TargetPool,
  ) {
    // A socket from connectTarget reads into reused memory and hands its reads here; others emit 'data'.
    const reader = targetReaderOf(socket);
    if (reader) {
      reader.consumeWith(this);
    } else {
      socket.on('data', this.onData);
    }
    socket.on('end', this.onEnd);
    socket.on('error', this.onProblem);
    // Silent for too long while an answer is awaited (idle in the pool, the pool's deadline comes first):
    // armed once for the connection's life, not per request.
    socket.setTimeout(RESPONSE_IDLE_TIMEOUT_MS);
    socket.on('timeout', this.onProblem);
    socket.on('close', this.onClose);
  }

  takesViews(): boolean {
    return this.owner?.takesViews?.() === true;
  }

  sink(): Socket | null {
    return this.owner?.client ?? null;
  }

  mayRead(): boolean {
    return this.owner?.mayRead?.() ?? true;
  }

  /** Going idle in the pool: a large read buffer it took while streaming goes back. */
  settle(): void {
    targetReaderOf(this.socket)?.settle();
  }

  onData = (chunk: Buffer): void => {
    if (this.owner) {
      this.owner.onData(chunk);
    } else {
      // An idle connection has nothing to say; if it speaks, it cannot be trusted with a request.
      this.socket.destroy();
    }
  };

  private onEnd = (): void => this.owner?.onEnd();

  private onProblem = (): void => {
    this.socket.destroy();
  };

  private onClose = (): void => {
    this.pool.forget(this);
    this.owner?.onClose();
  };

  /** The connection stops speaking HTTP (a protocol switch): the socket is the caller's from now on. */
  detach(): Socket {
    const { socket } = this;
    this.owner = null;
    targetReaderOf(socket)?.consumeWith(null);
    socket.off('data', this.onData);
    socket.off('end', this.onEnd);
    socket.off('error', this.onProblem);
    socket.off('timeout', this.onProblem);
    socket.off('close', this.onClose);
    socket.setTimeout(0);
    return socket;
  }
}

/**
 * The key of a connection used for one request only: a rotating connection through a wholesale network
 * would keep the vendor's exit IP for as long as it was reused.
 */
export const ONE_OFF = '!one-off';

/** Idle keep-alive connections to targets, by exit and target, newest first. */
export class TargetPool {
  private readonly idle = new Map<string, TargetConnection[]>();

  take(key: string, owner: TargetOwner): TargetConnection | undefined {
    const list = this.idle.get(key);
    const connection = list?.pop();
    if (list && list.length === 0) {
      this.idle.delete(key);
    }
    if (connection) {
      idleDeadlines.delete(connection);
      connection.owner = owner;
      connection.isReused = true;
    }
    return connection;
  }

  adopt(socket: Socket, key: string, owner: TargetOwner): TargetConnection {
    const connection = new TargetConnection(socket, key, this);
    connection.owner = owner;
    return connection;
  }

  put(connection: TargetConnection): void {
    connection.owner = null;
    const list = this.idle.get(connection.key) ?? [];
    if (list.length >= MAX_IDLE_PER_KEY || connection.socket.destroyed || connection.key === ONE_OFF) {
      connection.socket.destroy();
      return;
    }
    connection.settle();
    list.push(connection);
    this.idle.set(connection.key, list);
    idleDeadlines.set(connection);
  }

  forget(connection: TargetConnection): void {
    idleDeadlines.delete(connection);
    const list = this.idle.get(connection.key);
    const at = list?.indexOf(connection) ?? -1;
    if (list && at !== -1) {
      list.splice(at, 1);
      if (list.length === 0) {
        this.idle.delete(connection.key);
      }
    }
  }

  destroyAll(): void {
    for (const list of this.idle.values()) {
      for (const connection of [...list]) {
        connection.socket.destroy();
      }
    }
    this.idle.clear();
  }
}
