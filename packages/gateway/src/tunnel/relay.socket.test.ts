import { createHash, randomBytes } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { connectTarget, type ReadConsumer, relay, relayLimits, targetReaderOf } from './relay.ts';

// The relay on its own, between real sockets: a "proxy" server whose accepted client is relayed to a
// target opened with connectTarget, as the CONNECT and SOCKS5 listeners do after their handshakes.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function listen(onSocket: (socket: Socket) => void): Promise<number> {
  const server = createServer(onSocket);
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

/** A relay from every accepted client to the target port, started `delayStartMs` after the target
 * connects (so a target that speaks first has its bytes waiting). */
async function relayTo(targetPort: number, delayStartMs = 0): Promise<number> {
  return listen((client) => {
    client.on('error', () => client.destroy());
    const target = connectTarget({ host: '127.0.0.1', port: targetPort });
    target.once('connect', () => setTimeout(() => relay(client, target), delayStartMs));
  });
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Reads a socket to its end, pausing now and then like a slow client when `slow`. */
function readAll(socket: Socket, slow = false): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let count = 0;
    // A slow client lets the kernel's buffers fill first, so the relay's writes to it wait.
    if (slow) {
      socket.pause();
      setTimeout(() => socket.resume(), 300);
    }
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      count += 1;
      if (slow && count % 64 === 0) {
        socket.pause();
        setTimeout(() => socket.resume(), 20);
      }
    });
    socket.once('end', () => resolve(Buffer.concat(chunks)));
    socket.once('error', reject);
  });
}

describe('tunnel relay', () => {
  it('delivers what a target sends before the relay starts, then the rest, in order', async () => {
    const targetPort = await listen((socket) => {
      socket.write('220 banner before anything\r\n');
      socket.once('data', (data) => socket.end(`echo:${data.toString()}`));
    });
    const proxyPort = await relayTo(targetPort, 100);
    const client = connect(proxyPort, '127.0.0.1');
    const received = readAll(client);
    client.write('hello');
    expect((await received).toString()).toBe('220 banner before anything\r\necho:hello');
  });

  it.each([
    ['own buffers from the pool', 64],
    ['only the shared buffer (the pool is used up)', 0],
  ])(
    'carries 48 MiB intact to a client that keeps pausing, and 70 tunnels at once, ten of them slow: %s',
    async (_, maxOwnBuffers) => {
      const defaultLimit = relayLimits.maxOwnBuffers;
      relayLimits.maxOwnBuffers = maxOwnBuffers;
      onTestFinished(() => {
        relayLimits.maxOwnBuffers = defaultLimit;
      });
      const payload = randomBytes(48 * 1024 * 1024);
      const targetPort = await listen((socket) => {
        // "offset size": that slice of the payload, so every tunnel carries different bytes.
        socket.once('data', (data) => {
          const [offset = 0, size = 0] = data.toString().split(' ').map(Number);
          socket.end(payload.subarray(offset, offset + size));
        });
      });
      const proxyPort = await relayTo(targetPort);
      const fetchThrough = async (offset: number, size: number, slow: boolean) => {
        const client = connect(proxyPort, '127.0.0.1');
        const received = readAll(client, slow);
        client.write(`${offset} ${size}`);
        return received;
      };

      const big = await fetchThrough(0, payload.length, true);
      expect(big.length).toBe(payload.length);
      expect(sha256(big)).toBe(sha256(payload));

      // Ten slow clients make the relay's writes wait (the kernel's buffers fill) while sixty others read.
      const slices = Array.from({ length: 70 }, (_, i) => ({
        offset: (i * 317 * 1024 + i) % (32 * 1024 * 1024),
        size: (i < 10 ? 16 : 1) * 1024 * 1024,
      }));
      // The fast ones start while the slow ones' writes wait (the slow clients read after 300 ms).
      const results = await Promise.all(
        slices.map(async ({ offset, size }, i) => {
          if (i >= 10) {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return fetchThrough(offset, size, i < 10);
        }),
      );
      results.forEach((result, i) => {
        const { offset = 0, size = 0 } = slices[i] ?? {};
        expect(result.length).toBe(size);
        expect(sha256(result)).toBe(sha256(payload.subarray(offset, offset + size)));
      });
    },
  );

  it('carries the upload direction and closes the client when the target hangs up', async () => {
    const upload = randomBytes(4 * 1024 * 1024);
    const targetPort = await listen((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (Buffer.concat(chunks).length === upload.length) {
          socket.end(sha256(Buffer.concat(chunks)));
        }
      });
    });
    const proxyPort = await relayTo(targetPort);
    const client = connect(proxyPort, '127.0.0.1');
    const received = readAll(client);
    const closed = new Promise((resolve) => client.once('close', resolve));
    client.write(upload);
    expect((await received).toString()).toBe(sha256(upload));
    await closed;
  });

  it('reads a forward target into other memory while a write still holds a view of its own buffer', async () => {
    // A forward request's target connection (consumer mode): body bytes go on as views of the reader's
    // own buffer. The first answer's last view is still in a write to its client when the connection
    // passes to the next exchange (a kept-alive target back in the pool): the next answer must not be
    // read into that memory, or the first client would get the second's bytes.
    const defaultViews = relayLimits.forwardViews;
    relayLimits.forwardViews = true;
    onTestFinished(() => {
      relayLimits.forwardViews = defaultViews;
    });
    const first = randomBytes(3 * 1024 * 1024);
    const second = randomBytes(3 * 1024 * 1024);
    const targetPort = await listen((socket) => {
      socket.once('data', () => {
        socket.write(first);
        socket.once('data', () => socket.end(second));
      });
    });
    // The first client: a write is done once its bytes are copied (as the kernel does), except the
    // answer's last write, held until the test lets it go (a client that stopped reading at the end).
    const slowReceived: Buffer[] = [];
    let held: { chunk: Buffer; done: () => void } | null = null;
    let firstLeft = first.length;
    const slowSink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (firstLeft > 0) {
          slowReceived.push(Buffer.from(chunk));
          done();
        } else {
          held = { chunk, done };
        }
      },
    }) as unknown as Socket;
    const fastReceived: Buffer[] = [];
    let current: 'first' | 'second' = 'first';
    let lastWasView = false;
    let viewsWhileHeld = 0;
    const target = connectTarget({ host: '127.0.0.1', port: targetPort });
    const ended = new Promise((resolve) => target.once('end', resolve));
    const consumer: ReadConsumer = {
      onData: (chunk) => {
        const isView = lastWasView;
        lastWasView = false;
        if (current === 'second') {
          fastReceived.push(Buffer.from(chunk));
          return;
        }
        firstLeft -= chunk.length;
        if (firstLeft > 0) {
          slowSink.write(chunk);
          return;
        }
        expect(isView).toBe(true);
        slowSink.write(chunk);
        // The first answer is whole: the connection goes on to the next request at once, as a pooled
        // target does (the exchange's release resumes it).
        current = 'second';
        setImmediate(() => {
          target.write('next');
          target.resume();
        });
      },
      takesViews: () => {
        lastWasView = true;
        if (held) {
          viewsWhileHeld += 1;
        }
        return true;
      },
      sink: () => (current === 'first' ? slowSink : null),
      mayRead: () => true,
    };
    targetReaderOf(target)?.consumeWith(consumer);
    target.once('connect', () => target.write('go'));
    await ended;
    expect(Buffer.concat(fastReceived).equals(second)).toBe(true);
    expect(viewsWhileHeld).toBe(0);
    // The held write's bytes are read only now: they were never overwritten.
    const last = held as { chunk: Buffer; done: () => void } | null;
    expect(last).not.toBeNull();
    slowReceived.push(Buffer.from(last?.chunk ?? Buffer.alloc(0)));
    last?.done();
    expect(sha256(Buffer.concat(slowReceived))).toBe(sha256(first));
  });

  describe('an own buffer goes back to the pool only when no write holds it and no read can land in it', () => {
    // One own buffer in all, so a buffer given back is the next one taken; views on.
    const defaults = { ...relayLimits };
    beforeEach(() => {
      relayLimits.maxOwnBuffers = 1;
      relayLimits.forwardViews = true;
    });
    // Closed before the servers are (a server's close waits for its connections).
    const sockets: Socket[] = [];
    afterEach(() => {
      Object.assign(relayLimits, defaults);
      for (const socket of sockets.splice(0)) {
        socket.destroy();
      }
    });

    /** A sink that takes writes at once, but holds the write that crosses `holdAt` bytes until released. */
    function holdingSink(holdAt: number) {
      const state = { taken: 0, held: null as { chunk: Buffer; at: number; done: () => void } | null };
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          const at = state.taken;
          state.taken += chunk.length;
          if (state.held === null && state.taken >= holdAt) {
            state.held = { chunk, at, done };
          } else {
            done();
          }
        },
      }) as unknown as Socket;
      return { sink, state };
    }

    /** A target that sends what the test tells it to, on its one connection. */
    async function scriptedTarget() {
      let socket: Socket | null = null;
      let connected: () => void = () => {};
      const ready = new Promise<void>((resolve) => {
        connected = resolve;
      });
      const port = await listen((accepted) => {
        socket = accepted;
        sockets.push(accepted);
        connected();
      });
      return {
        port,
        ready,
        send: (bytes: Buffer) => (socket as Socket | null)?.write(bytes),
      };
    }

    /** A forward target connection whose reads go to `onData` (views when `views`). */
    function consumed(
      port: number,
      onData: (chunk: Buffer) => void,
      sink: () => Socket | null,
      views: boolean,
    ) {
      const target = connectTarget({ host: '127.0.0.1', port });
      targetReaderOf(target)?.consumeWith({ onData, takesViews: () => views, sink, mayRead: () => true });
      sockets.push(target);
      return target;
    }

    /** A forward target connection whose reads are only counted (a client that reads at once). */
    function counted(port: number) {
      let got = 0;
      const socket = consumed(
        port,
        (chunk) => {
          got += chunk.length;
        },
        () => null,
        false,
      );
      return { socket, got: () => got };
    }

    function until(ready: () => boolean): Promise<void> {
      return expect.poll(ready, { timeout: 5_000, interval: 5 }).toBe(true) as unknown as Promise<void>;
    }

    it('a connection that goes back to the target pool with its last view still being written keeps that memory', async () => {
      // The first answer: 1 MiB, whose last read reaches a client that stopped reading, and the
      // connection settles into the pool right then (inside that read, as an exchange's end does).
      const answer = randomBytes(1024 * 1024);
      const first = await scriptedTarget();
      const { sink, state } = holdingSink(answer.length);
      let got = 0;
      const firstTarget = consumed(
        first.port,
        (chunk) => {
          got += chunk.length;
          sink.write(chunk);
          if (got === answer.length) {
            targetReaderOf(firstTarget)?.settle();
          }
        },
        () => sink,
        true,
      );
      await first.ready;
      first.send(answer);
      await until(() => state.held !== null);
      // Another connection streams meanwhile: it must not be given the memory the held write reads.
      const other = await scriptedTarget();
      const otherTarget = counted(other.port);
      await other.ready;
      other.send(randomBytes(2 * 1024 * 1024));
      await until(() => otherTarget.got() === 2 * 1024 * 1024);
      const held = state.held as unknown as { chunk: Buffer; at: number; done: () => void };
      expect(held.chunk.equals(answer.subarray(held.at, held.at + held.chunk.length))).toBe(true);
      held.done();
    });

    it('a buffer given up between reads is not read into by its socket once another socket has it', async () => {
      // A connection streams into its own buffer, then settles outside any read (an exchange that
      // ended after waiting for traffic): its socket's next read is already armed with that buffer.
      const quiet = await scriptedTarget();
      const quietTarget = counted(quiet.port);
      await quiet.ready;
      quiet.send(randomBytes(512 * 1024));
      await until(() => quietTarget.got() === 512 * 1024);
      await new Promise((resolve) => setImmediate(resolve));
      targetReaderOf(quietTarget.socket)?.settle();
      // Another connection streams to a client that stops reading after 256 KiB.
      const payload = randomBytes(1024 * 1024);
      const streaming = await scriptedTarget();
      const { sink, state } = holdingSink(256 * 1024);
      consumed(
        streaming.port,
        (chunk) => sink.write(chunk),
        () => sink,
        true,
      );
      await streaming.ready;
      streaming.send(payload);
      await until(() => state.held !== null);
      // The quiet connection speaks again: its read must land somewhere other than the held write.
      quiet.send(Buffer.alloc(200 * 1024, 0x41));
      await until(() => quietTarget.got() === 712 * 1024);
      const held = state.held as unknown as { chunk: Buffer; at: number; done: () => void };
      expect(held.chunk.equals(payload.subarray(held.at, held.at + held.chunk.length))).toBe(true);
      held.done();
    });
  });
});
