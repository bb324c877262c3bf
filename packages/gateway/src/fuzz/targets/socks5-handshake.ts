import fc from 'fast-check';
import {
  ADDRESS_DOMAIN,
  ADDRESS_IPV4,
  ADDRESS_IPV6,
  parseCredentials,
  parseGreeting,
  parseRequest,
  type Socks5Credentials,
  type Socks5Greeting,
  type Socks5Parsed,
  type Socks5ProtocolError,
  type Socks5Request,
} from '../../listeners/socks5-messages.ts';
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

type Stage = 'greeting' | 'credentials' | 'request';

const parsers: Record<Stage, (bytes: Buffer) => Socks5Parsed<unknown>> = {
  greeting: parseGreeting,
  credentials: parseCredentials,
  request: parseRequest,
};

type Step =
  | { stage: 'greeting'; message: Socks5Greeting }
  | { stage: 'credentials'; message: Socks5Credentials }
  | { stage: 'request'; message: Socks5Request }
  | { stage: Stage; error: Socks5ProtocolError };

interface Handshake {
  steps: Step[];
  /** Bytes past the last message read (early tunnel data, or a message still incomplete). */
  rest: Buffer;
}

/** After a greeting the gateway asks for credentials when offered, else (an allowlisted client) the request. */
function nextStage(step: Step): Stage | null {
  if ('error' in step || step.stage === 'request') {
    return null;
  }
  if (step.stage === 'greeting') {
    return step.message.methods.includes(0x02) ? 'credentials' : 'request';
  }
  return 'request';
}

/**
 * Reads a client's handshake as the listener does, from `pieces` as they arrive: each parser is asked
 * again on every read, and must answer the same whatever follows the bytes it needs.
 */
function readHandshake(pieces: Buffer[]): Handshake {
  const steps: Step[] = [];
  let stage: Stage | null = 'greeting';
  let buffered = Buffer.alloc(0);
  for (const piece of pieces) {
    buffered = Buffer.concat([buffered, piece]);
    while (stage) {
      const parsed = parsers[stage](buffered);
      if (parsed.kind === 'incomplete') {
        break;
      }
      const more = parsers[stage](Buffer.concat([buffered, Buffer.from([0x05, 0x01, 0x00, 0x03, 0xff])]));
      assertEqual(more, parsed, `the ${stage} parser read past what it needed`);
      if (parsed.kind === 'error') {
        steps.push({ stage, error: parsed.error });
        stage = null;
        break;
      }
      assert(
        parsed.size > 0 && parsed.size <= buffered.length,
        `${stage}: took ${parsed.size} of ${buffered.length} bytes`,
      );
      const step = { stage, message: parsed.message } as Step;
      steps.push(step);
      buffered = buffered.subarray(parsed.size);
      stage = nextStage(step);
    }
  }
  return { steps, rest: buffered };
}

interface Socks5Input {
  bytes: Buffer;
  cuts: number[];
  /** For a generated valid handshake: what it must read as. */
  expected?: Handshake;
}

const utf8Text = (maxBytes: number) =>
  fc.string({ unit: 'grapheme', maxLength: 40 }).filter((text) => Buffer.byteLength(text) <= maxBytes);

/** A valid handshake, built message by message, with what reading it must answer. */
const validHandshake = fc
  .record({
    methods: fc.oneof(
      fc
        .array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 6 })
        .map((methods) => [...methods, 0x02]),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 255 }),
    ),
    username: fc.oneof(fc.stringMatching(/^[a-z0-9]{8,12}(__cr\.[a-z]{2})?$/), utf8Text(255)),
    password: utf8Text(255),
    command: fc.oneof(
      { weight: 4, arbitrary: fc.constant(0x01) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    ),
    version: fc.oneof(
      { weight: 4, arbitrary: fc.constant(0x05) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    ),
    address: fc.oneof(
      fc
        .uint8Array({ minLength: 4, maxLength: 4 })
        .map((bytes) => ({ type: ADDRESS_IPV4 as Socks5Request['addressType'], bytes: Buffer.from(bytes) })),
      fc
        .uint8Array({ minLength: 16, maxLength: 16 })
        .map((bytes) => ({ type: ADDRESS_IPV6 as Socks5Request['addressType'], bytes: Buffer.from(bytes) })),
      fc
        .oneof(
          fc.domain(),
          fc.uint8Array({ maxLength: 255 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
        )
        .filter((name) => name.length <= 255)
        .map((name) => ({
          type: ADDRESS_DOMAIN as Socks5Request['addressType'],
          bytes: Buffer.concat([Buffer.from([name.length]), Buffer.from(name, 'latin1')]),
        })),
    ),
    port: fc.integer({ min: 0, max: 65535 }),
    early: randomBytes(24),
  })
  .map(({ methods, username, password, command, version, address, port, early }) => {
    const greeting = Buffer.from([0x05, methods.length, ...methods]);
    const withAuth = methods.includes(0x02);
    const credentials = withAuth
      ? Buffer.concat([
          Buffer.from([0x01, Buffer.byteLength(username)]),
          Buffer.from(username),
          Buffer.from([Buffer.byteLength(password)]),
          Buffer.from(password),
        ])
      : Buffer.alloc(0);
    const portBytes = Buffer.alloc(2);
    portBytes.writeUInt16BE(port);
    const request = Buffer.concat([
      Buffer.from([version, command, 0x00, address.type]),
      address.bytes,
      portBytes,
    ]);
    const rawAddress = address.type === ADDRESS_DOMAIN ? address.bytes.subarray(1) : address.bytes;
    const host =
      address.type === ADDRESS_IPV4
        ? [...rawAddress].join('.')
        : address.type === ADDRESS_IPV6
          ? Array.from({ length: 8 }, (_, i) => rawAddress.readUInt16BE(i * 2).toString(16)).join(':')
          : rawAddress.toString('latin1');
    const steps: Step[] = [{ stage: 'greeting', message: { methods } }];
    if (withAuth) {
      steps.push({ stage: 'credentials', message: { username, password } });
    }
    steps.push({ stage: 'request', message: { version, command, addressType: address.type, host, port } });
    return {
      bytes: Buffer.concat([greeting, credentials, request, early]),
      expected: { steps, rest: early },
    };
  });

const SOCKS5_DICTIONARY = [
  '\x05\x01\x02',
  '\x05\x01\x00',
  '\x01\x00\x00',
  '\x05\x01\x00\x01',
  '\x05\x01\x00\x03',
  '\x05\x01\x00\x04',
  '\x00\x50',
  '\xff',
];

/**
 * The SOCKS5 handshake parsers (greeting, RFC 1929 credentials, CONNECT request): a stream cut into
 * reads anywhere gives the messages it gives whole, no parser takes more bytes than it was given or
 * reads past the message it needs, and every generated valid handshake reads back as built.
 */
export const socks5HandshakeTarget = defineTarget<Socks5Input>({
  name: 'socks5-handshake',
  covers: 'parseGreeting, parseCredentials and parseRequest over a client stream split anywhere',
  inputs: (seeds) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(validHandshake, splits)
          .map(([{ bytes, expected }, cuts]) => ({ bytes, cuts, expected })),
      },
      { weight: 4, arbitrary: fc.record({ bytes: mutatedSeeds(seeds, SOCKS5_DICTIONARY), cuts: splits }) },
      {
        weight: 1,
        arbitrary: fc.record({
          bytes: fc
            .tuple(fc.constantFrom(0x05, 0x04, 0x00), randomBytes(96))
            .map(([first, rest]) => Buffer.concat([Buffer.from([first]), rest])),
          cuts: splits,
        }),
      },
    ),
  fromCorpus: (seed) =>
    corpusSplits(seed.length).map((points) => ({ bytes: seed, cuts: points.map((at) => at / seed.length) })),
  check({ bytes, cuts, expected }) {
    const whole = readHandshake([bytes]);
    const split = readHandshake(splitAt(bytes, cutPoints(bytes.length, cuts)));
    assertEqual(split, whole, 'the handshake cut into reads read otherwise than whole');
    if (expected) {
      assertEqual(whole, expected, 'a valid handshake did not read back as built');
    }
  },
});
