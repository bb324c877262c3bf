import { connect, type Socket, type TcpNetConnectOpts } from 'node:net';
import { endWith } from './end-with.ts';

// The tunnel relay's download direction (target → client) carries almost all of a proxy's bytes. A
// plain `pipe` allocates a fresh 64 KiB buffer per read and leaves each to the garbage collector; here a
// target socket reads into memory that is reused, and is paused while a write of that memory is still
// in flight, so the relay costs about half the CPU per GB (bench/gateway measures it).
//
// Idle tunnels must stay cheap, so a target socket starts on one buffer shared by every socket (whose
// bytes are copied out before anything else can read into it) and gets a large buffer of its own from
// a bounded pool only while it streams; it hands the buffer back when its reads turn small or it closes.

const SHARED = Buffer.allocUnsafeSlow(64 * 1024);
/** A read this large means the socket streams: it gets a buffer of its own. */
const STREAMING_READ = 32 * 1024;
/** A read this small means it stopped streaming: its buffer goes back to the pool. */
const QUIET_READ = 4 * 1024;
const OWN_BUFFER_BYTES = 512 * 1024;
/**
 * At most this many own buffers exist at once (32 MiB); sockets beyond stay on the shared one.
 * `forwardViews`: forward responses go on as views of reused memory rather than copies (see consumeView).
 */
export const relayLimits = { maxOwnBuffers: 64, forwardViews: true };

const freeBuffers: Buffer[] = [];
/** Own buffers held by sockets now. */
let buffersInUse = 0;

function takeBuffer(): Buffer | null {
  if (buffersInUse >= relayLimits.maxOwnBuffers) {
    return null;
  }
  buffersInUse += 1;
  return freeBuffers.pop() ?? Buffer.allocUnsafeSlow(OWN_BUFFER_BYTES);
}

/** A buffer no write holds any more goes back to the pool; one still held is left to the collector. */
function giveBack(buffer: Buffer, isHeld: boolean): void {
  buffersInUse -= 1;
  if (!isHeld) {
    freeBuffers.push(buffer);
  }
}

/**
 * How many of `bytes` may go on to the client now (the connection's traffic allowance); fewer means
 * the plan's traffic is used up after them, and the relay stops, unless `wait` answers a promise: then
 * more traffic is on its way (a gateway of a fleet drawing its next slice), and the relay holds the rest
 * and stops reading until it lands.
 */
export type Allow = ((bytes: number) => number) & { wait?: () => Promise<void> | null };

const UNLIMITED: Allow = (bytes) => bytes;
const EMPTY = Buffer.alloc(0);

/**
 * Who reads a target socket that carries forward requests (a TargetConnection) rather than a tunnel:
 * it gets what the socket reads, as a copy it may keep, or, while it streams a response body on to a
 * client (`takesViews`), as a view of reused memory that it only writes to `sink` (or copies).
 */
export interface ReadConsumer {
  onData(chunk: Buffer): void;
  /** A view written to the client now would be all that is done with it. */
  takesViews(): boolean;
  /** The client socket views are written to. */
  sink(): Socket | null;
  /** Reading may go on once a view's write has flushed (no backpressure or waiting for traffic). */
  mayRead(): boolean;
}

/** Reads one target socket into reused memory and writes what it reads to the client (the sink). */
class TargetReader {
  socket!: Socket;
  private sink: Socket | null = null;
  private allow: Allow = UNLIMITED;
  private own: Buffer | null = null;
  /** Bytes that arrived before the relay started (a server that speaks first), copied. */
  private early: Buffer[] = [];
  /** Reading is stopped until the sink has flushed what was written to it. */
  private waiting = false;
  /** The own buffer goes back to the pool once the write that holds it is flushed. */
  private releasing = false;
  /** Waiting for traffic (Allow.wait): reading stays stopped whatever the sink does. */
  private starved = false;
  /** Forward requests' reads go to this, not to a sink (see ReadConsumer). */
  private consumer: ReadConsumer | null = null;
  /** A write of a view of the own buffer has not flushed: nothing is read into it meanwhile. */
  private viewHeld = false;
  /**
   * The buffer the socket's next read lands in: the last one nextBuffer answered (Node asks for it
   * after each read). An own buffer given up while armed cannot go back to the pool yet, or this
   * socket's next read would overwrite another socket's bytes: it is parked until the socket reads
   * once more (into it, copied out) or closes.
   */
  private armed: Buffer = SHARED;
  private parked: Buffer | null = null;

  nextBuffer = (): Buffer => {
    // An own buffer on its way back to the pool (releasing) or held by a write is not read into.
    const next = this.viewHeld || this.releasing || !this.own ? SHARED : this.own;
    this.armed = next;
    if (this.parked && this.parked !== next) {
      giveBack(this.parked, false);
      this.parked = null;
    }
    return next;
  };

  /** Reads go to `consumer` from now on (null: to the relay's sink, once it starts). */
  consumeWith(consumer: ReadConsumer | null): void {
    this.consumer = consumer;
  }

  /** The socket goes quiet (an idle keep-alive connection): its own buffer goes back to the pool. */
  settle(): void {
    this.releasing = true;
    this.releaseIfQuiet();
  }

  onRead = (length: number, buffer: Buffer): boolean => {
    if (this.consumer) {
      return this.consume(this.consumer, length, buffer);
    }
    const allowed = this.sink ? this.allow(length) : length;
    const more = allowed < length ? this.allow.wait?.() : null;
    if (more) {
      // Traffic is being drawn: what is allowed goes now, the rest (copied) when it lands.
      const sink = this.sink as Socket;
      if (allowed > 0) {
        sink.write(Buffer.from(buffer.subarray(0, allowed)));
      }
      const rest = Buffer.from(buffer.subarray(allowed, length));
      this.starved = true;
      const feed = () => this.fed(rest);
      void more.then(feed, feed);
      return false;
    }
    if (allowed < length) {
      // The plan's traffic ends inside this read: the client gets the part it paid for, then the end;
      // the rest is never written, so never billed. (A copy: the buffer is given back on close.)
      const part = Buffer.allocUnsafe(allowed);
      buffer.copy(part, 0, 0, allowed);
      endLastPaid(this.sink as Socket, part);
      this.socket.destroy();
      return false;
    }
    if (buffer !== this.own) {
      // The shared buffer: copy out before any other socket reads into it.
      const copy = Buffer.allocUnsafe(length);
      buffer.copy(copy, 0, 0, length);
      if (!this.sink) {
        this.early.push(copy);
        this.waiting = true;
        return false;
      }
      if (length >= STREAMING_READ && !this.own) {
        this.own = takeBuffer();
      }
      return this.write(copy);
    }
    if (length < QUIET_READ) {
      this.releasing = true;
    }
    const flushed = this.write(buffer.subarray(0, length));
    if (flushed) {
      this.releaseIfQuiet();
    }
    return flushed;
  };

  /**
   * A read for a forward request's consumer: a streamed body goes on as a view of the own buffer, and
   * reading stops until its write has flushed; anything else (heads, small reads) is a copy to keep.
   */
  private consume(consumer: ReadConsumer, length: number, buffer: Buffer): boolean {
    if (relayLimits.forwardViews && buffer === this.own && consumer.takesViews()) {
      return this.consumeView(consumer, length, buffer);
    }
    const copy = Buffer.allocUnsafe(length);
    buffer.copy(copy, 0, 0, length);
    if (length >= STREAMING_READ && !this.own && !this.viewHeld) {
      this.own = takeBuffer();
    }
    consumer.onData(copy);
    return true;
  }

  /**
   * A streamed body's read as a view of the own buffer, not a copy (bench/gateway: 373 ms of CPU per GB
   * against 410 with copies; relayLimits.forwardViews turns it off). The view is held from before it is handed on until
   * its write has flushed, so that the buffer neither goes back to the pool nor is read into meanwhile.
   */
  private consumeView(consumer: ReadConsumer, length: number, buffer: Buffer): boolean {
    if (length < QUIET_READ) {
      this.releasing = true;
    }
    // The client the view is written to, asked first: handing it on may end the exchange.
    const sink = consumer.sink();
    // Held from before the hand-off: the last view of an answer puts the connection back in the pool
    // (settle) while its write may still be in flight, and the buffer must not go back with it.
    this.viewHeld = true;
    consumer.onData(buffer.subarray(0, length));
    if (sink && !sink.destroyed && sink.writableLength > 0) {
      // Nothing is read into the own buffer until the write holding the view has flushed: an empty
      // write's callback comes after every write before it (after the end, the sink's close does).
      if (sink.writableEnded) {
        sink.once('close', this.afterViewFlushed);
      } else {
        sink.write(EMPTY, this.afterViewFlushed);
      }
      return false;
    }
    this.viewHeld = false;
    this.releaseIfQuiet();
    return true;
  }

  private afterViewFlushed = (): void => {
    this.viewHeld = false;
    this.releaseIfQuiet();
    if (!this.socket.destroyed && this.consumer?.mayRead() !== false) {
      this.socket.resume();
    }
  };

  /** Writes to the sink; false (stop reading) while the bytes are not all handed to the kernel. */
  private write(chunk: Buffer): boolean {
    const sink = this.sink as Socket;
    if (sink.destroyed) {
      return false;
    }
    sink.write(chunk, this.afterWrite);
    if (sink.writableLength === 0) {
      return true;
    }
    this.waiting = true;
    return false;
  }

  /** Traffic landed: the bytes held back go on, and reading starts again unless a write is pending. */
  private fed(rest: Buffer): void {
    this.starved = false;
    if (this.socket.destroyed || !this.sink || this.sink.destroyed) {
      return;
    }
    if (this.onRead(rest.length, rest) && !this.starved) {
      this.socket.resume();
    }
  }

  private afterWrite = (error?: Error | null): void => {
    if (!this.waiting || this.starved || error || !this.sink || this.sink.writableLength > 0) {
      return;
    }
    this.waiting = false;
    this.releaseIfQuiet();
    if (!this.socket.destroyed) {
      this.socket.resume();
    }
  };

  private releaseIfQuiet(): void {
    if (this.viewHeld) {
      // A write still holds the own buffer: it goes back once that has flushed.
      return;
    }
    if (this.releasing && this.own) {
      if (this.own === this.armed) {
        this.parked = this.own;
      } else {
        giveBack(this.own, false);
      }
      this.own = null;
    }
    this.releasing = false;
  }

  /** Starts relaying to the client: first what the target sent early, then the rest as it comes. */
  start(sink: Socket, allow: Allow): void {
    this.consumer = null;
    this.sink = sink;
    this.allow = allow;
    const early = this.early;
    this.early = [];
    this.waiting = false;
    // What came early goes the way of any read: out of the allowance, waiting for traffic if need be.
    const bytes = early.length === 1 ? (early[0] as Buffer) : Buffer.concat(early);
    if (bytes.length === 0 || (this.onRead(bytes.length, bytes) && !this.starved)) {
      this.socket.resume();
    }
  }

  closed(): void {
    if (this.own) {
      giveBack(this.own, this.waiting || this.viewHeld);
    }
    this.own = null;
    // Nothing reads into a closed socket's buffer any more.
    if (this.parked) {
      giveBack(this.parked, false);
      this.parked = null;
    }
  }
}

const readers = new WeakMap<Socket, TargetReader>();

/** The reader of a socket opened by connectTarget (a forward request's TargetConnection consumes it). */
export function targetReaderOf(socket: Socket): Pick<TargetReader, 'consumeWith' | 'settle'> | undefined {
  return readers.get(socket);
}

/** Opens a TCP connection to a target whose bytes `relay` can carry without an allocation per read. */
export function connectTarget(options: TcpNetConnectOpts): Socket {
  const reader = new TargetReader();
  const socket = connect({ ...options, onread: { buffer: reader.nextBuffer, callback: reader.onRead } });
  reader.socket = socket;
  readers.set(socket, reader);
  socket.once('close', () => reader.closed());
  return socket;
}

/**
 * Forwards `from` to `to` out of the allowance: a chunk past it is cut to what is allowed and the
 * relay ends; backpressure pauses the reading side.
 */
function forward(from: Socket, to: Socket, allow: Allow): void {
  /** Chunks held while traffic is being drawn (Allow.wait), in order. */
  let held: Buffer[] | null = null;
  /** The client ended while chunks were held: the end follows them. */
  let isEnded = false;
  const send = (chunk: Buffer): void => {
    if (held) {
      held.push(chunk);
      return;
    }
    const length = allow(chunk.length);
    if (length < chunk.length) {
      const more = allow.wait?.();
      if (more) {
        if (length > 0) {
          to.write(chunk.subarray(0, length));
        }
        const waiting: Buffer[] = [chunk.subarray(length)];
        held = waiting;
        from.pause();
        const feed = () => {
          held = null;
          for (const next of waiting) {
            send(next);
          }
          if (!held && isEnded) {
            to.end();
          } else if (!held && !from.destroyed && !to.writableNeedDrain) {
            from.resume();
          }
        };
        void more.then(feed, feed);
        return;
      }
      endLastPaid(to, chunk.subarray(0, length));
      from.destroy();
      return;
    }
    if (!to.write(chunk)) {
      from.pause();
      to.once('drain', () => {
        if (!held) {
          from.resume();
        }
      });
    }
  };
  from.on('data', send);
  from.once('end', () => {
    if (held) {
      isEnded = true;
    } else {
      to.end();
    }
  });
  // A socket paused before the relay (a CONNECT head being read, a tunnel arriving paused) flows now.
  from.resume();
}

/** Sockets given the last bytes their plan paid for: the other side's close must not cut those off. */
const endingPaid = new WeakSet<Socket>();

/**
 * The plan's traffic ran out: `to` gets the bytes paid for (billed as written) and ends, and closes on
 * its own once they are out (endWith); destroying it when the other side closes would drop bytes still
 * queued in it, billed and never delivered.
 */
function endLastPaid(to: Socket, bytes: Buffer): void {
  endingPaid.add(to);
  endWith(to, bytes);
  // A client that stops reading does not hold the connection (and its thread) beyond this.
  const deadline = setTimeout(() => to.destroy(), LAST_PAID_DEADLINE_MS);
  deadline.unref();
  to.once('close', () => clearTimeout(deadline));
}

const LAST_PAID_DEADLINE_MS = 30_000;

/**
 * Carries bytes both ways between a client and a target until either side ends, then closes both.
 * Every byte goes out of the client connection's traffic allowance (`allow`), in both directions: when
 * the plan's traffic is used up the tunnel ends at that byte. A target opened by `connectTarget` reads
 * into reused memory; any other socket is read chunk by chunk.
 */
export function relay(client: Socket, target: Socket, allow: Allow = UNLIMITED): void {
  target.on('error', () => client.destroy());
  client.on('close', () => {
    if (!endingPaid.has(target)) {
      target.destroy();
    }
  });
  target.on('close', () => {
    if (!endingPaid.has(client)) {
      client.destroy();
    }
  });
  forward(client, target, allow);
  const reader = readers.get(target);
  if (reader) {
    target.once('end', () => client.end());
    reader.start(client, allow);
  } else {
    forward(target, client, allow);
  }
}
