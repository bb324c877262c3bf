import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import fc from 'fast-check';
import { ClientConnection } from '../../http1/client-connection.ts';
import {
  findHeadEnd,
  MAX_HEAD_BYTES,
  MalformedMessage,
  parseRequestHead,
  type RequestHead,
} from '../../http1/messages.ts';
import {
  assertEqual,
  corpusSplits,
  cutPoints,
  defineTarget,
  mutatedSeeds,
  randomBytes,
  splitAt,
  splits,
} from '../harness.ts';
import { HTTP_DICTIONARY, naiveHeadEnd, validHead } from './http-head.ts';

/** Just enough of a socket for a ClientConnection: the test emits 'data' and 'close' itself. */
class FakeSocket extends EventEmitter {
  bytesRead = 0;
  destroyed = false;
  setNoDelay(): this {
    return this;
  }
  setTimeout(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  destroy(): this {
    this.destroyed = true;
    return this;
  }
}

type Event =
  | { kind: 'connect' | 'forward'; head: RequestHead; rest: Buffer }
  | { kind: 'malformed' }
  | { kind: 'too-large' };

interface StreamInput {
  bytes: Buffer;
  /** Where the stream is cut into reads (fractions of its length). */
  cuts: number[];
}

/** What the connection must make of `bytes` arriving as `pieces`: worked out from the whole stream. */
function expectedEvents(bytes: Buffer, pieces: Buffer[]): Event[] {
  const end = naiveHeadEnd(bytes);
  if (end !== -1 && end <= MAX_HEAD_BYTES) {
    let head: RequestHead;
    try {
      head = parseRequestHead(bytes, end);
    } catch (error) {
      if (error instanceof MalformedMessage) {
        return [{ kind: 'malformed' }];
      }
      throw error;
    }
    // The head is read when the piece holding its last byte arrives; the rest of that piece follows it.
    let read = 0;
    for (const piece of pieces) {
      read += piece.length;
      if (read >= end) {
        break;
      }
    }
    return [
      { kind: head.method === 'CONNECT' ? 'connect' : 'forward', head, rest: bytes.subarray(end, read) },
    ];
  }
  return bytes.length > MAX_HEAD_BYTES ? [{ kind: 'too-large' }] : [];
}

/** A valid head grown by a padding header to about `size` bytes (around the 16 KiB limit). */
const paddedHead = fc
  .tuple(validHead, fc.integer({ min: MAX_HEAD_BYTES - 8, max: MAX_HEAD_BYTES + 8 }), randomBytes(8))
  .map(([{ bytes }, size, after]) => {
    const line = bytes.subarray(0, bytes.length - 2);
    const pad = Math.max(0, size - bytes.length - 'X-Pad: \r\n'.length);
    return Buffer.concat([line, Buffer.from(`X-Pad: ${'a'.repeat(pad)}\r\n\r\n`), after]);
  });

/** A head with no end, about the size of the limit. */
const endlessHead = fc
  .integer({ min: MAX_HEAD_BYTES - 4, max: MAX_HEAD_BYTES + 4 })
  .map((size) =>
    Buffer.concat([Buffer.from('GET http://a/ HTTP/1.1\r\nX: '), Buffer.alloc(size, 'b')]).subarray(0, size),
  );

/**
 * A client connection reading request heads, cut into reads anywhere: findHeadEnd agrees with the
 * naive scan (also resuming from where an earlier search stopped), and the connection answers what the
 * whole stream calls for (a head and the bytes after it, a malformed head, or 431 past 16 KiB) however
 * the bytes arrive, once.
 */
export const httpHeadStreamTarget = defineTarget<StreamInput>({
  name: 'http-head-stream',
  covers: 'findHeadEnd and ClientConnection reading heads split anywhere, the 16 KiB limit',
  inputs: (seeds) =>
    fc.record({
      bytes: fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .tuple(validHead, randomBytes(24))
            .map(([{ bytes }, after]) => Buffer.concat([bytes, after])),
        },
        { weight: 3, arbitrary: mutatedSeeds(seeds, HTTP_DICTIONARY) },
        { weight: 1, arbitrary: paddedHead },
        { weight: 1, arbitrary: endlessHead },
        { weight: 1, arbitrary: randomBytes(128) },
      ),
      cuts: splits,
    }),
  fromCorpus: (seed) =>
    corpusSplits(seed.length).map((points) => ({ bytes: seed, cuts: points.map((at) => at / seed.length) })),
  check({ bytes, cuts }) {
    const points = cutPoints(bytes.length, cuts);
    const end = naiveHeadEnd(bytes);
    assertEqual(findHeadEnd(bytes), end, 'findHeadEnd disagrees with the naive scan');
    for (const at of points) {
      const before = end !== -1 && end <= at ? end : -1;
      assertEqual(findHeadEnd(bytes.subarray(0, at)), before, `findHeadEnd on the first ${at} bytes`);
      if (before === -1) {
        assertEqual(findHeadEnd(bytes, at), end, `findHeadEnd resumed at ${at}`);
      }
    }

    const pieces = splitAt(bytes, points);
    const socket = new FakeSocket();
    const events: Event[] = [];
    const connection = new ClientConnection(socket as unknown as Socket, {
      onConnect: (head, rest) => events.push({ kind: 'connect', head, rest }),
      onForward: (_client, head, rest) => events.push({ kind: 'forward', head, rest }),
      onMalformed: () => events.push({ kind: 'malformed' }),
      onTooLarge: () => events.push({ kind: 'too-large' }),
    });
    for (const piece of pieces) {
      if (events.length > 0) {
        // The connection has paused or handed the socket on: a real socket delivers nothing more.
        break;
      }
      socket.bytesRead += piece.length;
      socket.emit('data', piece);
    }
    socket.emit('close');
    assertEqual(
      events,
      expectedEvents(bytes, pieces),
      'the connection answered otherwise than the whole stream calls for',
    );
    if (events[0]?.kind === 'forward' || events[0]?.kind === 'connect') {
      assertEqual(connection.requestStart, 0, 'the first request does not start at byte 0');
    }
  },
});
