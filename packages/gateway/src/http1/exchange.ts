import type { Socket } from 'node:net';
import { endWith } from '../tunnel/end-with.ts';
import type { Allow } from '../tunnel/relay.ts';
import { BodyTracker } from './body-tracker.ts';
import type { ForwardRequest } from './forward-request.ts';
import {
  findHeadEnd,
  MAX_HEAD_BYTES,
  MalformedMessage,
  MessageFields,
  parseResponseHead,
} from './messages.ts';
import type { TargetConnection, TargetOwner, TargetPool } from './target-pool.ts';

const EMPTY = Buffer.alloc(0);
/** A response's first body bytes up to this size are copied behind its head and sent in one write. */
const JOINED_BODY_BYTES = 16 * 1024;

export interface ExchangeEvents {
  /** The response head reached the client. */
  onAnswered(): void;
  /** The target failed before any byte of an answer reached the client. */
  onFailed(): void;
  /**
   * The plan's traffic ran out (nothing more can be drawn): before the answer's head reached the client
   * (`isAnswered` false) the client is to be refused with why; after it, the answer was cut at the last
   * byte paid for.
   */
  onOutOfTraffic(isAnswered: boolean): void;
  /** The response is complete: the client connection takes its next request, or was ended. */
  onDone(clientKeepAlive: boolean, pipelined: Buffer): void;
  /**
   * The target switched protocols (101) as the client asked: `response` (the 101 head and whatever
   * followed it) goes to the client, `pipelined` (client bytes past the request) to the target, and
   * from then on both are carried as a tunnel. The target connection has left the pool.
   */
  onSwitched(response: Buffer, target: Socket, pipelined: Buffer): void;
}

/**
 * One request and its response between a client and a target connection, as raw bytes: the request
 * head and body go out as they come, the response head is rewritten (hop-by-hop headers dropped) and
 * its body streamed back untouched, with its end found from its framing so both connections can be
 * kept alive. Backpressure both ways pauses the side that reads.
 */
export class ForwardExchange implements TargetOwner {
  private connection: TargetConnection | null = null;
  private readonly requestBody: BodyTracker;
  private responseHead: Buffer = EMPTY;
  private responseBody: BodyTracker | null = null;
  private answered = false;
  private finished = false;
  private keepClient = false;
  private keepTarget = false;
  /** Client bytes past this request's end (a pipelined request): handed back when done. */
  private pipelined: Buffer = EMPTY;
  /** Client bytes that came while the exit was still opening (an upstream tunnel): sent at start. */
  private early: Buffer = EMPTY;
  /**
   * Waiting for traffic being drawn (Allow.wait): the response bytes already taken from the body and
   * not yet sent (null: the response head waits, its bytes first in `queued`), what the target sent
   * since (in order), and whether it ended or closed meanwhile.
   */
  private starved: {
    taken: Buffer | null;
    hasTrailing: boolean;
    queued: Buffer[];
    end: 'end' | 'close' | null;
  } | null = null;
  /** Of a response head that waited for traffic, the bytes already taken out of the allowance. */
  private headPaid = 0;
  /** Client bytes that came while the request body waited for traffic (null: it does not wait). */
  private clientQueue: Buffer[] | null = null;

  constructor(
    readonly client: Socket,
    private readonly request: ForwardRequest,
    private readonly pool: TargetPool,
    private readonly events: ExchangeEvents,
    /**
     * The client connection's traffic allowance: bytes past it are not sent, and the exchange ends,
     * unless more is being drawn (`wait`): then the response waits for it.
     */
    private readonly allow: Allow = (bytes) => bytes,
  ) {
    this.requestBody = new BodyTracker(request.framing);
  }

  /** Sends the request on a connection; `body` holds the client bytes read past the head. */
  start(connection: TargetConnection, body: Buffer): void {
    this.connection = connection;
    const target = connection.socket;
    target.cork();
    target.write(this.request.head);
    const early = this.early;
    if (early.length > 0) {
      this.early = EMPTY;
      // Flowing again; what follows may pause the client once more (backpressure, a pipelined request).
      this.client.resume();
    }
    this.onClientData(early.length > 0 ? Buffer.concat([body, early]) : body);
    target.uncork();
  }

  /** Client bytes read past this request (for a retry of a failed exchange). */
  takePipelined(): Buffer {
    // Bytes held while the exit opened come first: the exchange failed before it could send them.
    const pipelined = this.early.length > 0 ? Buffer.concat([this.early, this.pipelined]) : this.pipelined;
    this.early = EMPTY;
    this.pipelined = EMPTY;
    return pipelined;
  }

  /** Client bytes while this exchange runs: the request body, then anything pipelined after it. */
  onClientData(chunk: Buffer): void {
    if (chunk.length === 0) {
      return;
    }
    if (this.clientQueue) {
      this.clientQueue.push(chunk);
      this.client.pause();
      return;
    }
    if (!this.connection) {
      // No connection yet to write the body to: hold it, and read no more until there is one.
      this.early = this.early.length > 0 ? Buffer.concat([this.early, chunk]) : chunk;
      this.client.pause();
      return;
    }
    let used = 0;
    if (!this.requestBody.done) {
      try {
        used = this.requestBody.take(chunk);
      } catch {
        this.client.destroy();
        return;
      }
      if (used > 0 && !this.sendRequestBody(chunk.subarray(0, used), chunk.subarray(used))) {
        return;
      }
    }
    this.keepPipelined(chunk.subarray(used));
  }

  private keepPipelined(bytes: Buffer): void {
    if (bytes.length > 0) {
      this.pipelined = Buffer.concat([this.pipelined, bytes]);
      this.client.pause();
    }
  }

  /**
   * Request body bytes to the target out of the allowance; false when they wait for traffic being drawn
   * (the client's reading stops, and `after` with what comes meanwhile follows once it landed) or the
   * plan's traffic ran out.
   */
  private sendRequestBody(bytes: Buffer, after: Buffer): boolean {
    const allowed = this.allow(bytes.length);
    const target = this.connection?.socket;
    if (
      target &&
      allowed > 0 &&
      !target.write(allowed === bytes.length ? bytes : bytes.subarray(0, allowed))
    ) {
      this.client.pause();
      target.once('drain', () => {
        if (!this.clientQueue) {
          this.client.resume();
        }
      });
    }
    if (allowed === bytes.length) {
      return true;
    }
    const more = this.allow.wait?.();
    if (!more) {
      this.outOfTraffic();
      return false;
    }
    const queue = [Buffer.from(after)];
    this.clientQueue = queue;
    this.client.pause();
    const unsent = Buffer.from(bytes.subarray(allowed));
    const feed = () => {
      this.clientQueue = null;
      if (this.finished || this.client.destroyed || !this.connection) {
        return;
      }
      if (!this.sendRequestBody(unsent, EMPTY)) {
        // Waiting again: what came meanwhile waits behind it, in order.
        (this.clientQueue as Buffer[] | null)?.push(...queue);
        return;
      }
      if (!this.connection.socket.writableNeedDrain) {
        this.client.resume();
      }
      for (const chunk of queue) {
        this.onClientData(chunk);
      }
    };
    void more.then(feed, feed);
    return false;
  }

  /**
   * The body streams on to the client: its bytes may come as views of the target reader's reused
   * memory (relay.ts), which only go to the client's writes (or are copied when held back).
   */
  takesViews(): boolean {
    return this.responseBody !== null && this.starved === null && !this.finished && !this.client.destroyed;
  }

  mayRead(): boolean {
    return this.starved === null && !this.client.writableNeedDrain;
  }

  onData(chunk: Buffer): void {
    if (this.finished) {
      return;
    }
    if (this.starved) {
      this.starved.queued.push(chunk);
      return;
    }
    try {
      if (this.responseBody) {
        const body = this.responseBody;
        const used = body.take(chunk);
        this.sendBody(used === chunk.length ? chunk : chunk.subarray(0, used), used < chunk.length);
      } else {
        this.readHead(chunk);
      }
    } catch {
      // Nothing of an answer reached the client: the target failed (and the client is told, or retried).
      if (this.answered) {
        this.abort();
      } else {
        this.fail();
      }
    }
  }

  private readHead(chunk: Buffer): void {
    let buffer = this.responseHead.length > 0 ? Buffer.concat([this.responseHead, chunk]) : chunk;
    for (;;) {
      const end = findHeadEnd(buffer);
      // A target's head may be larger than a client's (cookies), but not without end, however it arrives.
      if ((end === -1 && buffer.length > MAX_HEAD_BYTES * 4) || end > MAX_HEAD_BYTES * 4) {
        throw new MalformedMessage('response head too large');
      }
      if (end === -1) {
        this.responseHead = buffer;
        return;
      }
      const head = parseResponseHead(buffer, end);
      if (head.status === 101) {
        if (this.request.upgrade === undefined) {
          // A switch the client did not ask for (Upgrade was not sent on) is a broken target.
          throw new MalformedMessage('unexpected 101');
        }
        if (this.allowedHead(buffer.length, buffer)) {
          this.switchProtocols(buffer);
        }
        return;
      }
      const fields = new MessageFields(head.headers);
      const framing = fields.responseFraming(this.request.method, head.status);
      const isFinal = head.status >= 200;
      this.keepClient = this.request.clientKeepAlive && framing.kind !== 'close';
      const connection = !isFinal
        ? ''
        : this.keepClient
          ? this.request.clientMinor === 0
            ? 'Connection: keep-alive\r\n'
            : ''
          : 'Connection: close\r\n';
      const rewritten = fields.serialize(`HTTP/1.1 ${head.status} ${head.reason}`, '', connection);
      const rest = buffer.subarray(end);
      this.responseHead = EMPTY;
      if (!this.allowedHead(Buffer.byteLength(rewritten, 'latin1'), buffer)) {
        return;
      }
      if (!isFinal) {
        // 100 Continue and the like: passed on, and the final head follows.
        this.client.write(rewritten, 'latin1');
        buffer = rest;
        continue;
      }
      this.keepTarget = framing.kind !== 'close' && fields.keepsAlive(head.minor);
      const body = new BodyTracker(framing);
      this.responseBody = body;
      this.answered = true;
      // Counted before the head is sent: a body done in this read finishes the exchange, and a pipelined
      // request behind it may then be admitted at once (to another host, whose count this is not).
      this.events.onAnswered();
      const used = body.take(rest);
      this.sendBody(used === rest.length ? rest : rest.subarray(0, used), used < rest.length, rewritten);
      return;
    }
  }

  /**
   * Takes a response head's `bytes` out of the allowance. False when they wait for traffic being drawn
   * (the head's `buffer` is read again once it landed) or the plan's traffic ran out (the client is
   * refused with why): never a connection closed with nothing said.
   */
  private allowedHead(bytes: number, buffer: Buffer): boolean {
    const wanted = bytes - this.headPaid;
    const allowed = this.allow(wanted);
    if (allowed >= wanted) {
      this.headPaid = 0;
      return true;
    }
    this.headPaid += allowed;
    const more = this.allow.wait?.();
    if (!more) {
      this.outOfTraffic();
    } else {
      this.hold(more, null, false, Buffer.from(buffer));
    }
    return false;
  }

  /** Nothing more can be drawn: a client with no answer yet is refused, else the answer ends here. */
  private outOfTraffic(): void {
    this.finished = true;
    this.release(false);
    if (this.answered) {
      endWith(this.client, EMPTY);
    }
    this.events.onOutOfTraffic(this.answered);
  }

  /** Reads nothing more from the target until `more` settles; `taken` (or the head in `first`) then goes on. */
  private hold(more: Promise<void>, taken: Buffer | null, hasTrailing: boolean, first?: Buffer): void {
    const target = this.connection?.socket;
    target?.pause();
    this.starved = { taken, hasTrailing, queued: first ? [first] : [], end: null };
    const feed = () => this.fed(target);
    void more.then(feed, feed);
  }

  /**
   * Response body bytes taken from the tracker: sent out of the allowance, or held while it is drawn.
   * The response's rewritten `head` (its allowance taken) goes first, in the same write when both are
   * small: one syscall and one wake-up of the client for a short answer, not two.
   */
  private sendBody(bytes: Buffer, hasTrailing: boolean, head = ''): void {
    const allowed = bytes.length > 0 ? this.allow(bytes.length) : 0;
    if (allowed < bytes.length) {
      if (head !== '') {
        this.client.write(head, 'latin1');
      }
      if (allowed > 0) {
        this.client.write(bytes.subarray(0, allowed));
      }
      const more = this.allow.wait?.();
      if (!more) {
        // The plan's traffic ends inside this chunk: the client gets what was paid for, then the end.
        this.outOfTraffic();
        return;
      }
      this.hold(more, Buffer.from(bytes.subarray(allowed)), hasTrailing);
      return;
    }
    if (head !== '' ? !this.writeHead(head, bytes) : bytes.length > 0 && !this.client.write(bytes)) {
      const target = this.connection?.socket;
      target?.pause();
      this.client.once('drain', () => {
        if (!this.starved) {
          target?.resume();
        }
      });
    }
    if (hasTrailing) {
      // Bytes after the response's end: the target cannot be trusted with another request.
      this.keepTarget = false;
    }
    if ((this.responseBody as BodyTracker).done) {
      this.finish();
    }
  }

  /** A response head and its first body bytes; false when the client's buffer is full. */
  private writeHead(head: string, bytes: Buffer): boolean {
    if (bytes.length === 0) {
      return this.client.write(head, 'latin1');
    }
    if (bytes.length > JOINED_BODY_BYTES) {
      this.client.cork();
      this.client.write(head, 'latin1');
      const written = this.client.write(bytes);
      this.client.uncork();
      return written;
    }
    const joined = Buffer.allocUnsafe(head.length + bytes.length);
    joined.write(head, 0, 'latin1');
    bytes.copy(joined, head.length);
    return this.client.write(joined);
  }

  /** Traffic landed: the held bytes go on, then what the target sent meanwhile, in order. */
  private fed(target: Socket | undefined): void {
    const held = this.starved;
    this.starved = null;
    if (!held || this.finished || this.client.destroyed) {
      return;
    }
    if (held.taken) {
      this.sendBody(held.taken, held.hasTrailing);
    }
    for (const chunk of held.queued) {
      this.onData(chunk);
    }
    if (this.starved) {
      // Starved again: what ended meanwhile waits with it.
      (this.starved as { end: 'end' | 'close' | null }).end ??= held.end;
      return;
    }
    if (held.end === 'end') {
      this.onEnd();
    } else if (held.end === 'close') {
      this.onClose();
    } else if (!this.client.writableNeedDrain) {
      target?.resume();
    }
  }

  onEnd(): void {
    if (this.starved) {
      this.starved.end ??= 'end';
      return;
    }
    if (this.responseBody?.isCloseDelimited && !this.finished) {
      this.finish();
    }
  }

  onClose(): void {
    if (this.finished) {
      return;
    }
    if (this.starved) {
      this.starved.end = 'close';
      return;
    }
    if (this.responseBody?.isCloseDelimited) {
      this.finish();
    } else if (this.answered) {
      // A response cut short: the client must see a cut connection, not a complete answer.
      this.abort();
    } else {
      this.fail();
    }
  }

  private switchProtocols(response: Buffer): void {
    const connection = this.connection as TargetConnection;
    this.connection = null;
    this.finished = true;
    this.answered = true;
    this.responseHead = EMPTY;
    this.events.onAnswered();
    this.events.onSwitched(response, connection.detach(), this.takePipelined());
  }

  /** The client left: the target connection is in an unknown state and goes too. */
  abort(): void {
    this.finished = true;
    this.release(false);
    this.client.destroy();
  }

  private fail(): void {
    this.finished = true;
    this.release(false);
    this.events.onFailed();
  }

  private finish(): void {
    this.finished = true;
    const requestSent = this.requestBody.done;
    this.release(this.keepTarget && requestSent);
    const keepClient = this.keepClient && requestSent;
    if (!keepClient) {
      // Not a bare end(): a pipelined request behind this one has paused the client, whose FIN would
      // then never be read (and the connection, with its thread slot, held for ever).
      endWith(this.client, EMPTY);
    }
    this.events.onDone(keepClient, this.pipelined);
  }

  private release(reuse: boolean): void {
    const connection = this.connection;
    this.connection = null;
    if (!connection) {
      return;
    }
    connection.socket.resume();
    if (reuse) {
      this.pool.put(connection);
    } else {
      connection.owner = null;
      connection.socket.destroy();
    }
  }
}
