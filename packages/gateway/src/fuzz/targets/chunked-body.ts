import fc from 'fast-check';
import { BodyTracker } from '../../http1/body-tracker.ts';
import { type Framing, MalformedMessage } from '../../http1/messages.ts';
import {
  assert,
  assertEqual,
  corpusSplits,
  cutPoints,
  defineTarget,
  mutatedSeeds,
  randomBytes,
  splitAt,
  splits,
} from '../harness.ts';

const CHUNKED_DICTIONARY = [
  '\r\n',
  '0\r\n\r\n',
  ';',
  ';name=value',
  ';q="a;b"',
  ' ',
  '\t',
  'ff',
  'FFFFFFFFFFFF',
  'X-Trailer: v\r\n',
  '\r',
  '\n',
];

type Outcome = { used: number; done: boolean } | { malformed: true };

/** Feeds `pieces` to a tracker as a connection would, stopping at the body's end. */
function track(framing: Framing, pieces: Buffer[]): Outcome {
  const tracker = new BodyTracker(framing);
  let used = 0;
  try {
    for (const piece of pieces) {
      if (tracker.done) {
        break;
      }
      const took = tracker.take(piece);
      assert(took >= 0 && took <= piece.length, `take answered ${took} for ${piece.length} bytes`);
      assert(tracker.done || took === piece.length, 'the tracker left bytes of an unfinished body');
      used += took;
    }
  } catch (error) {
    if (error instanceof MalformedMessage) {
      return { malformed: true };
    }
    throw error;
  }
  return { used, done: tracker.done };
}

/** How a chunk size line is written: leading zeros (12 digits at most), the case of hex, extensions. */
const sizeLineStyle = fc.record({
  zeros: fc.integer({ min: 0, max: 3 }),
  upper: fc.boolean(),
  extensions: fc.array(
    fc.tuple(
      fc.constantFrom('', ' ', '\t', ' \t'),
      fc.stringMatching(/^[a-z0-9-]{1,8}$/),
      fc.oneof(
        fc.constant(''),
        fc.stringMatching(/^=[a-z0-9]{1,8}$/),
        fc.stringMatching(/^="[a-z0-9 ;,=]{0,8}"$/),
      ),
    ),
    { maxLength: 3 },
  ),
});

function sizeLine(
  size: number,
  {
    zeros,
    upper,
    extensions,
  }: { zeros: number; upper: boolean; extensions: Array<[string, string, string]> },
): string {
  const hex = size.toString(16);
  const digits = `${'0'.repeat(Math.min(zeros, 12 - hex.length))}${upper ? hex.toUpperCase() : hex}`;
  return `${digits}${extensions.map(([space, name, value]) => `${space};${name}${value}`).join('')}\r\n`;
}

interface ChunkedInput {
  framing: Framing;
  bytes: Buffer;
  cuts: number[];
  /** For a generated valid body: its length in bytes (what follows it is the next message). */
  bodyLength?: number;
}

/** A valid chunked body (sizes, extensions, data holding CR and LF, trailers) and the bytes after it. */
const validChunked = fc
  .record({
    chunks: fc.array(
      fc.tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 1, max: 40 }) },
          { weight: 1, arbitrary: fc.integer({ min: 41, max: 5000 }) },
        ),
        sizeLineStyle,
      ),
      { maxLength: 6 },
    ),
    last: sizeLineStyle,
    trailers: fc.array(fc.stringMatching(/^[A-Za-z-]{1,12}: ?[ -~]{0,20}$/), { maxLength: 3 }),
    after: randomBytes(16),
    dataSeed: fc.nat(),
  })
  .map(({ chunks, last, trailers, after, dataSeed }) => {
    const parts: Buffer[] = [];
    for (const [size, style] of chunks) {
      parts.push(Buffer.from(sizeLine(size, style), 'latin1'));
      // Data is opaque: CR, LF, digits and semicolons inside it must not confuse the tracker.
      const data = Buffer.alloc(size);
      for (let at = 0; at < size; at++) {
        const mix = (dataSeed + at * 7919) % 251;
        data[at] = mix % 3 === 0 ? ('\r\n0;'.charCodeAt(mix % 4) as number) : mix;
      }
      parts.push(data, Buffer.from('\r\n'));
    }
    parts.push(Buffer.from(sizeLine(0, last), 'latin1'));
    parts.push(Buffer.from(trailers.map((line) => `${line}\r\n`).join(''), 'latin1'), Buffer.from('\r\n'));
    return { body: Buffer.concat(parts), after };
  });

/**
 * The body tracker on chunked bodies (and Content-Length ones): fed a body cut anywhere it answers what
 * it answers fed whole (bytes taken, end, or MalformedMessage and never another error), never takes
 * bytes past the body's end, and finds the exact end of every valid chunked body.
 */
export const chunkedBodyTarget = defineTarget<ChunkedInput>({
  name: 'chunked-body',
  covers: 'BodyTracker following chunked bodies (sizes, extensions, trailers) and Content-Length ones',
  inputs: (seeds) =>
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.tuple(validChunked, splits).map(([{ body, after }, cuts]) => ({
          framing: { kind: 'chunked' } as const,
          bytes: Buffer.concat([body, after]),
          cuts,
          bodyLength: body.length,
        })),
      },
      {
        weight: 4,
        arbitrary: fc.tuple(mutatedSeeds(seeds, CHUNKED_DICTIONARY), splits).map(([bytes, cuts]) => ({
          framing: { kind: 'chunked' } as const,
          bytes,
          cuts,
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(randomBytes(64), splits)
          .map(([bytes, cuts]) => ({ framing: { kind: 'chunked' } as const, bytes, cuts })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.integer({ min: 1, max: 300 }), randomBytes(300), splits)
          .map(([length, bytes, cuts]) => ({
            framing: { kind: 'length', length } as const,
            bytes,
            cuts,
            ...(bytes.length >= length ? { bodyLength: length } : {}),
          })),
      },
    ),
  fromCorpus: (seed) =>
    corpusSplits(seed.length).map((points) => ({
      framing: { kind: 'chunked' } as const,
      bytes: seed,
      cuts: points.map((at) => at / seed.length),
    })),
  check({ framing, bytes, cuts, bodyLength }) {
    const whole = track(framing, [bytes]);
    const split = track(framing, splitAt(bytes, cutPoints(bytes.length, cuts)));
    assertEqual(split, whole, 'the body cut into pieces tracked otherwise than whole');
    if ('used' in whole) {
      assert(whole.used <= bytes.length, 'took more bytes than given');
    }
    if (bodyLength !== undefined) {
      assertEqual(whole, { used: bodyLength, done: true }, 'a valid body did not end at its last byte');
      // One byte short, the body is not over and every byte was its own.
      const short = track(framing, [bytes.subarray(0, bodyLength - 1)]);
      assertEqual(short, { used: bodyLength - 1, done: false }, 'a valid body ended before its last byte');
    } else if (framing.kind === 'length') {
      assertEqual(whole, { used: bytes.length, done: false }, 'a short Content-Length body');
    }
  },
});
