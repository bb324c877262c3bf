import { connect, type Socket, type TcpNetConnectOpts } from 'node:net';

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
/** At most this many own buffers exist at once (32 MiB); sockets beyond stay on the shared one. */
export const relayLimits = { maxOwnBuffers: 64 };

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

/** Reads one target socket into reused memory and writes what it reads to the client (the sink). */
class TargetReader {
  socket!: Socket;
  private sink: Socket | null = null;
  private own: Buffer | null = null;
  /** Bytes that arrived before the relay started (a server that speaks first), copied. */
  private early: Buffer[] = [];
  /** Reading is stopped until the sink has flushed what was written to it. */
  private waiting = false;
  /** The own buffer goes back to the pool once the write that holds it is flushed. */
  private releasing = false;

  nextBuffer = (): Buffer => this.own ?? SHARED;

  onRead = (length: number, buffer: Buffer): boolean => {
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

  private afterWrite = (error?: Error | null): void => {
    if (!this.waiting || error || !this.sink || this.sink.writableLength > 0) {
      return;
    }
    this.waiting = false;
    this.releaseIfQuiet();
    if (!this.socket.destroyed) {
      this.socket.resume();
    }
  };

  private releaseIfQuiet(): void {
    if (this.releasing && this.own) {
      giveBack(this.own, false);
      this.own = null;
    }
    this.releasing = false;
  }

  /** Starts relaying to the client: first what the target sent early, then the rest as it comes. */
  start(sink: Socket): void {
    this.sink = sink;
    const early = this.early;
    this.early = [];
    this.waiting = false;
    for (const [i, chunk] of early.entries()) {
      sink.write(chunk, i === early.length - 1 ? this.afterWrite : undefined);
    }
    if (sink.writableLength > 0) {
      this.waiting = true;
    } else {
      this.socket.resume();
    }
  }

  closed(): void {
    if (this.own) {
      giveBack(this.own, this.waiting);
    }
    this.own = null;
  }
}

const readers = new WeakMap<Socket, TargetReader>();

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
 * Carries bytes both ways between a client and a target until either side ends, then closes both.
 * A target opened by `connectTarget` reads into reused memory; any other socket is piped.
 */
export function relay(client: Socket, target: Socket): void {
  target.on('error', () => client.destroy());
  client.on('close', () => target.destroy());
  target.on('close', () => client.destroy());
  client.pipe(target);
  const reader = readers.get(target);
  if (reader) {
    target.once('end', () => client.end());
    reader.start(client);
  } else {
    target.pipe(client);
  }
}
