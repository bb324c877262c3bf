import fc from 'fast-check';
import { MalformedMessage, parseRequestHead, type RequestHead } from '../../http1/messages.ts';
import { assert, assertEqual, defineTarget, mutatedSeeds, randomBytes } from '../harness.ts';

/** Tokens a head is made of, inserted whole by the mutator. */
export const HTTP_DICTIONARY = [
  '\r\n',
  '\r\n\r\n',
  '\n',
  '\r',
  ': ',
  ':',
  ' ',
  '\t',
  ',',
  'HTTP/1.1',
  'HTTP/1.0',
  'CONNECT ',
  'GET http://',
  'Content-Length: ',
  'Transfer-Encoding: chunked',
  'Connection: close',
  'Connection: keep-alive, Upgrade',
  'Upgrade: websocket',
  'Proxy-Authorization: Basic ',
  'Host: ',
  '0\r\n\r\n',
  '\x00',
  '\xa0',
];

const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const token = (maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength });
const method = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PUT', 'HEAD', 'DELETE', 'OPTIONS', 'CONNECT', 'PATCH'),
  token(12),
);
/** A request target: visible ASCII, no space (absolute-form, authority-form or anything else). */
const target = fc.oneof(
  fc.webUrl({ withQueryParameters: true }).map((url) => url.replace(/^https?:/, 'http:')),
  fc.constantFrom('example.com:443', '127.0.0.1:8080', '[::1]:443', '*'),
  fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
    minLength: 1,
    maxLength: 64,
  }),
);
/** A field value (RFC 9110 5.5): visible ASCII and obs-text, spaces and tabs only inside. */
const visible = fc.oneof(
  { arbitrary: fc.integer({ min: 0x21, max: 0x7e }), weight: 8 },
  { arbitrary: fc.integer({ min: 0x80, max: 0xff }), weight: 1 },
);
const fieldValue = fc.oneof(
  fc.constant(''),
  fc
    .tuple(visible, fc.array(fc.oneof(visible, fc.constantFrom(0x20, 0x09)), { maxLength: 40 }), visible)
    .map(([first, middle, last]) => String.fromCharCode(first, ...middle, last)),
  visible.map((code) => String.fromCharCode(code)),
);
/** Optional whitespace around a value (RFC 9110 5.6.3). */
const ows = fc.constantFrom('', '', ' ', '\t', '  ', ' \t');

export interface GeneratedHead {
  bytes: Buffer;
  head: RequestHead;
}

/** A valid request head, built from its parts, with what parsing it must answer. */
export const validHead: fc.Arbitrary<GeneratedHead> = fc
  .record({
    method,
    target,
    minor: fc.constantFrom(0, 1),
    headers: fc.array(fc.tuple(token(24), ows, fieldValue, ows), { maxLength: 12 }),
  })
  .map(({ method, target, minor, headers }) => {
    let text = `${method} ${target} HTTP/1.${minor}\r\n`;
    for (const [name, before, value, after] of headers) {
      text += `${name}:${before}${value}${after}\r\n`;
    }
    return {
      bytes: Buffer.from(`${text}\r\n`, 'latin1'),
      head: { method, target, minor, headers: headers.map(([name, , value]) => [name, value]) },
    };
  });

interface HeadInput {
  bytes: Buffer;
  /** Bytes after the head (a body, the next request): the parser must not look at them. */
  after: Buffer;
  /** For a generated valid head: what it must parse to. */
  expected?: RequestHead;
}

type Outcome = { head: RequestHead } | { malformed: string };

function parse(buffer: Buffer, end: number): Outcome {
  try {
    return { head: parseRequestHead(buffer, end) };
  } catch (error) {
    if (error instanceof MalformedMessage) {
      return { malformed: error.message };
    }
    throw error;
  }
}

/** Where a head ends: the naive scan for the first CRLFCRLF (the reference findHeadEnd is held to). */
export function naiveHeadEnd(bytes: Buffer): number {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      return i + 4;
    }
  }
  return -1;
}

/**
 * The request head parser: it answers a head or throws its own MalformedMessage (never another
 * error), reads nothing past the head's end, answers only header values a field may hold (no CR,
 * LF or NUL: RFC 9110 5.5) and reads back every generated valid head exactly.
 */
export const httpHeadTarget = defineTarget<HeadInput>({
  name: 'http-head',
  covers: 'parseRequestHead: the request line and headers of an HTTP/1.x request',
  inputs: (seeds) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(validHead, randomBytes(32))
          .map(([{ bytes, head }, after]) => ({ bytes, after, expected: head })),
      },
      {
        weight: 4,
        arbitrary: fc
          .tuple(mutatedSeeds(seeds, HTTP_DICTIONARY), randomBytes(16))
          .map(([bytes, after]) => ({ bytes, after })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(randomBytes(256), randomBytes(16)).map(([bytes, after]) => ({ bytes, after })),
      },
    ),
  fromCorpus: (seed) => [{ bytes: seed, after: Buffer.alloc(0) }],
  check({ bytes, after, expected }) {
    // The parser is given a buffer and the end of the head in it (findHeadEnd's answer).
    let end = naiveHeadEnd(bytes);
    if (end === -1) {
      bytes = Buffer.concat([bytes, Buffer.from('\r\n\r\n')]);
      end = naiveHeadEnd(bytes);
    }
    const outcome = parse(bytes, end);
    // Whatever follows the head in the buffer changes nothing.
    const withAfter = Buffer.concat([bytes.subarray(0, end), after, Buffer.from('\r\n\r\nGET / HTTP/1.1')]);
    assertEqual(parse(withAfter, end), outcome, 'the bytes after the head changed the result');
    if ('head' in outcome) {
      const { head } = outcome;
      assert(head.minor === 0 || head.minor === 1, `minor version ${head.minor}`);
      assert(TOKEN.test(head.method), `method ${JSON.stringify(head.method)}`);
      assert(/^[\x21-\x7e\x80-\xff]+$/.test(head.target), `target ${JSON.stringify(head.target)}`);
      for (const [name, value] of head.headers) {
        // Not a token: "Name : value" or a folded line, read one way here and another by the target.
        assert(TOKEN.test(name), `header name ${JSON.stringify(name)}`);
        assert(!/[\r\n\0]/.test(value), `the value of ${JSON.stringify(name)} holds CR, LF or NUL`);
        assert(!/^[ \t]|[ \t]$/.test(value), `the value of ${JSON.stringify(name)} keeps its whitespace`);
      }
    }
    if (expected) {
      assertEqual(outcome, { head: expected }, 'a valid head did not read back as built');
    }
  },
});
