import type { Socket } from 'node:net';
import { Deadlines } from '../tunnel/deadlines.ts';
import { endWith } from '../tunnel/end-with.ts';
import type { ForwardExchange } from './exchange.ts';
import { findHeadEnd, MAX_HEAD_BYTES, parseRequestHead, type RequestHead } from './messages.ts';

/**
 * A request head must be complete this long after its first byte (or after the connection opened, for
 * its first request): an absolute deadline, so a client dripping a byte at a time cannot hold the
 * connection open (each byte would reset an idle timer).
 */
export const HEAD_DEADLINE_MS = 10_000;
/** A kept-alive client connection with no request is closed after this (Node's server: 5 s). */
const IDLE_TIMEOUT_MS = 60_000;
const EMPTY = Buffer.alloc(0);

const closeConnection = (connection: ClientConnection) => connection.socket.destroy();
/** Every connection's head deadline on one timer (a timer per connection costs at thousands a second). */
const headDeadlines = new Deadlines<ClientConnection>(HEAD_DEADLINE_MS, closeConnection);
/**
 * And every kept-alive connection's wait for its next request: a socket timeout would make a timer
 * (and a bound function) per request, and refresh it at each of the connection's reads and writes.
 */
const idleDeadlines = new Deadlines<ClientConnection>(IDLE_TIMEOUT_MS, closeConnection);
// Listeners shared by every socket (`this` is the socket): no closures per connection.
function destroySocket(this: Socket): void {
  this.destroy();
}

export interface ClientConnectionHandlers {
  /** A CONNECT head; the socket is paused and the connection is the handler's from now on. */
  onConnect(head: RequestHead, rest: Buffer): void;
  /** Any other request; `rest` holds the bytes read past its head. */
  onForward(client: ClientConnection, head: RequestHead, rest: Buffer): void;
  /** A head that cannot be read: answer it and close. */
  onMalformed(message: string): void;
  /** A head over the size limit (431): answer it and close. */
  onTooLarge(message: string): void;
}

/**
 * One client connection on an HTTP proxy port: reads request heads (HTTP/1.x, kept alive, pipelined
 * ones in turn), hands absolute-form requests on to forward exchanges and CONNECT to a tunnel.
 */
export class ClientConnection {
  /** The socket's bytesRead at which the request being handled began (for billing a kept-alive socket). */
  requestStart = 0;
  private buffered: Buffer = EMPTY;
  private exchange: ForwardExchange | null = null;
  private isTunnel = false;
  /** A request head was handed on and its answer is not done (resolving, connecting, exchanging). */
  private isHandling = false;
  /** The gateway drains: no request after the one under way. */
  private isClosing = false;

  constructor(
    readonly socket: Socket,
    private readonly handlers: ClientConnectionHandlers,
    /** The listener's socket has TCP_NODELAY, which accepted sockets inherit: no setsockopt here. */
    isNoDelayInherited = false,
  ) {
    if (!isNoDelayInherited) {
      socket.setNoDelay(true);
    }
    socket.on('data', this.onData);
    socket.on('error', destroySocket);
    socket.on('close', this.onClose);
    // The first request's head is due within the deadline of the connection opening.
    headDeadlines.set(this);
  }

  private onClose = (): void => {
    headDeadlines.delete(this);
    idleDeadlines.delete(this);
    this.exchange?.abort();
  };

  private startHeadDeadline(): void {
    this.clearIdleTimer();
    headDeadlines.set(this);
  }

  private stopHeadDeadline(): void {
    headDeadlines.delete(this);
  }

  private clearIdleTimer(): void {
    idleDeadlines.delete(this);
  }

  /** Between requests: an idle timer while nothing came; once a byte of a head did, its deadline. */
  private waitForHead(): void {
    if (this.buffered.length > 0) {
      this.startHeadDeadline();
    } else {
      idleDeadlines.set(this);
    }
  }

  private onData = (chunk: Buffer): void => {
    if (this.exchange) {
      this.exchange.onClientData(chunk);
      return;
    }
    this.buffered = this.buffered.length > 0 ? Buffer.concat([this.buffered, chunk]) : chunk;
    this.readHead();
  };

  private readHead(): void {
    const end = findHeadEnd(this.buffered);
    // However the bytes arrive (one read of 60 KB, or a byte at a time), a head is at most 16 KiB.
    if ((end === -1 && this.buffered.length > MAX_HEAD_BYTES) || end > MAX_HEAD_BYTES) {
      this.buffered = EMPTY;
      this.stopHeadDeadline();
      this.handlers.onTooLarge('The request head is larger than 16 KiB');
      return;
    }
    if (end === -1) {
      this.waitForHead();
      return;
    }
    this.stopHeadDeadline();
    let head: RequestHead;
    try {
      head = parseRequestHead(this.buffered, end);
    } catch (error) {
      this.refuseHead(`Malformed proxy request: ${(error as Error).message}`);
      return;
    }
    this.requestStart = this.socket.bytesRead - this.buffered.length;
    const rest = this.buffered.subarray(end);
    this.buffered = EMPTY;
    this.clearIdleTimer();
    if (head.method === 'CONNECT') {
      this.isTunnel = true;
      this.socket.off('data', this.onData);
      this.socket.pause();
      this.handlers.onConnect(head, rest);
      return;
    }
    // Nothing more is read until this request is under way (its body then goes to the exchange).
    this.socket.pause();
    this.isHandling = true;
    this.handlers.onForward(this, head, rest);
  }

  private refuseHead(message: string): void {
    this.buffered = EMPTY;
    this.stopHeadDeadline();
    this.handlers.onMalformed(message);
  }

  /** Its bytes go to this exchange until the request is over. */
  setExchange(exchange: ForwardExchange): void {
    this.exchange = exchange;
    this.socket.resume();
  }

  /** The connection stops speaking HTTP (a protocol switch): the socket is the caller's from now on. */
  detach(): void {
    this.exchange = null;
    this.isTunnel = true;
    this.socket.off('data', this.onData);
    this.clearIdleTimer();
  }

  /** The request is over: read the next one (starting with `pipelined`), or the socket was ended. */
  afterRequest(clientKeepAlive: boolean, pipelined: Buffer): void {
    this.exchange = null;
    this.isHandling = false;
    if (!clientKeepAlive || this.isTunnel || this.socket.destroyed) {
      return;
    }
    if (this.isClosing) {
      // Answered in full; a pipelined request is left unanswered, as when any server closes.
      endWith(this.socket, EMPTY);
      return;
    }
    this.buffered = pipelined;
    this.socket.resume();
    if (pipelined.length > 0) {
      this.readHead();
    } else {
      this.waitForHead();
    }
  }

  /**
   * The gateway drains: a connection waiting for its next request (or its first) holds no work and is
   * closed now; one with a request under way or a tunnel is closed once that is done, never cut here.
   */
  closeWhenIdle(): void {
    this.isClosing = true;
    if (!this.isHandling && !this.isTunnel && this.buffered.length === 0) {
      this.socket.destroy();
    }
  }
}
