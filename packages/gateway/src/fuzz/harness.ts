// The fuzzing harness shared by the targets: a target's inputs come from fast-check (generated
// structurally, mutated from the corpus kept in the repo, or plain random bytes), its properties are
// checked on each one, and each input must be done within MAX_MS_PER_INPUT (no hang). `npm run fuzz`
// (run.ts) runs the long pass, fuzz.test.ts a short one in `npm test`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';

/** An input that takes longer than this (measured three times) counts as a hang. */
export const MAX_MS_PER_INPUT = 50;

export interface FuzzTarget<T> {
  /** Also the name of its corpus folder under `fuzz/corpus/`. */
  name: string;
  /** What it covers, for the report. */
  covers: string;
  /** Inputs: `seeds` are the corpus files, to be mutated. */
  inputs(seeds: Buffer[]): fc.Arbitrary<T>;
  /** A corpus file as the inputs it stands for (fed whole, byte by byte, ...). */
  fromCorpus(seed: Buffer): T[];
  /** Throws when a property does not hold for `input`. */
  check(input: T): void;
}

/** A target with its input type put away: what the runner and the test need. */
export interface RunnableTarget {
  name: string;
  covers: string;
  run(options: { runs: number; timeLimitMs: number; seed?: number }): FuzzResult;
}

export function defineTarget<T>(target: FuzzTarget<T>): RunnableTarget {
  return { name: target.name, covers: target.covers, run: (options) => runTarget(target, options) };
}

export const CORPUS_DIR = fileURLToPath(new URL('./corpus/', import.meta.url));

/** The corpus files of a target, in name order. */
export function readCorpus(name: string): Array<{ file: string; bytes: Buffer }> {
  const dir = join(CORPUS_DIR, name);
  return readdirSync(dir)
    .filter((file) => !file.startsWith('.'))
    .sort()
    .map((file) => ({ file, bytes: readFileSync(join(dir, file)) }));
}

/** The check, failing on an input that is slow every time (a single slow run may be GC or a busy core). */
export function checkInTime<T>(target: FuzzTarget<T>, input: T): void {
  let fastest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && fastest > MAX_MS_PER_INPUT; attempt++) {
    const started = performance.now();
    target.check(input);
    fastest = Math.min(fastest, performance.now() - started);
  }
  if (fastest > MAX_MS_PER_INPUT) {
    throw new Error(`${target.name}: an input took ${fastest.toFixed(1)} ms (over ${MAX_MS_PER_INPUT} ms)`);
  }
}

export interface FuzzResult {
  target: string;
  corpusInputs: number;
  /** Generated inputs checked (fast-check's runs). */
  inputs: number;
  ms: number;
  seed: number;
  /** Why it failed, with the smallest input fast-check found; undefined when every input passed. */
  failure?: string;
}

/**
 * Replays the corpus, then checks up to `runs` generated inputs or until `timeLimitMs` has passed,
 * whichever comes first. Answers the counts; a failure is reported, not thrown.
 */
export function runTarget<T>(
  target: FuzzTarget<T>,
  options: { runs: number; timeLimitMs: number; seed?: number },
): FuzzResult {
  const started = performance.now();
  const seed = options.seed ?? Date.now() ^ (Math.random() * 0x7fffffff);
  const corpus = readCorpus(target.name);
  let corpusInputs = 0;
  for (const { file, bytes } of corpus) {
    for (const input of target.fromCorpus(bytes)) {
      corpusInputs += 1;
      try {
        checkInTime(target, input);
      } catch (error) {
        return {
          target: target.name,
          corpusInputs,
          inputs: 0,
          ms: performance.now() - started,
          seed,
          failure: `corpus file ${file}: ${(error as Error).stack ?? error}`,
        };
      }
    }
  }
  const details = fc.check(
    fc.property(target.inputs(corpus.map(({ bytes }) => bytes)), (input) => {
      checkInTime(target, input);
    }),
    {
      numRuns: options.runs,
      seed,
      // Bounded however slow the machine: the run (shrinking a failure included) stops at the limit.
      plugins: [fc.interruptAfterTimeLimit(options.timeLimitMs)],
    },
  );
  const result: FuzzResult = {
    target: target.name,
    corpusInputs,
    inputs: details.numRuns,
    ms: performance.now() - started,
    seed,
  };
  if (details.failed) {
    const { errorInstance: error, counterexample, counterexamplePath } = details;
    result.failure = [
      error instanceof Error ? error.stack : String(error),
      `input: ${fc.stringify(counterexample)}`,
      `replay: seed ${details.seed}, path "${counterexamplePath}"`,
    ].join('\n');
  }
  return result;
}

// Mutations of corpus inputs: what a coverage-guided fuzzer does to its corpus, drawn by fast-check.

type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; byte: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; from: number; length: number; at: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'splice'; at: number; seed: number; from: number };

function applyMutation(input: Buffer, mutation: Mutation, seeds: Buffer[]): Buffer {
  const length = input.length;
  const at =
    length === 0 ? 0 : mutation.kind === 'insert' ? mutation.at % (length + 1) : mutation.at % length;
  switch (mutation.kind) {
    case 'flip': {
      if (length === 0) {
        return input;
      }
      const out = Buffer.from(input);
      out[at] = (out[at] as number) ^ (1 << mutation.bit);
      return out;
    }
    case 'set': {
      if (length === 0) {
        return input;
      }
      const out = Buffer.from(input);
      out[at] = mutation.byte;
      return out;
    }
    case 'insert':
      return Buffer.concat([input.subarray(0, at), mutation.bytes, input.subarray(at)]);
    case 'delete':
      return Buffer.concat([input.subarray(0, at), input.subarray(at + mutation.length)]);
    case 'duplicate': {
      const from = length === 0 ? 0 : mutation.from % length;
      const slice = input.subarray(from, from + mutation.length);
      return Buffer.concat([input.subarray(0, at), slice, input.subarray(at)]);
    }
    case 'truncate':
      return input.subarray(0, at);
    case 'splice': {
      const other = seeds[mutation.seed % seeds.length] ?? Buffer.alloc(0);
      const from = other.length === 0 ? 0 : mutation.from % other.length;
      return Buffer.concat([input.subarray(0, at), other.subarray(from)]);
    }
  }
}

/** Bytes that matter to the parsers here: delimiters, digits, the SOCKS5 constants, the extremes. */
const INTERESTING_BYTES = [
  0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x09, 0x0a, 0x0d, 0x20, 0x22, 0x2c, 0x2e, 0x30, 0x3a, 0x3b, 0x5f, 0x61,
  0x66, 0x7f, 0x80, 0xa0, 0xff,
];

/** Corpus inputs with up to `maxMutations` mutations each; `dictionary` holds tokens worth inserting whole. */
export function mutatedSeeds(seeds: Buffer[], dictionary: string[], maxMutations = 6): fc.Arbitrary<Buffer> {
  if (seeds.length === 0) {
    return fc.constant(Buffer.alloc(0));
  }
  const position = fc.nat({ max: 0xffff });
  const tokens = dictionary.map((token) => Buffer.from(token, 'latin1'));
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: position, bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({
      kind: fc.constant('set' as const),
      at: position,
      byte: fc.oneof(fc.constantFrom(...INTERESTING_BYTES), fc.integer({ min: 0, max: 255 })),
    }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: position,
      bytes:
        tokens.length > 0
          ? fc.oneof(fc.constantFrom(...tokens), fc.uint8Array({ maxLength: 8 }))
          : fc.uint8Array({ maxLength: 8 }),
    }),
    fc.record({
      kind: fc.constant('delete' as const),
      at: position,
      length: fc.integer({ min: 1, max: 16 }),
    }),
    fc.record({
      kind: fc.constant('duplicate' as const),
      from: position,
      length: fc.integer({ min: 1, max: 64 }),
      at: position,
    }),
    fc.record({ kind: fc.constant('truncate' as const), at: position }),
    fc.record({ kind: fc.constant('splice' as const), at: position, seed: fc.nat(), from: position }),
  );
  return fc
    .tuple(fc.nat({ max: seeds.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: maxMutations }))
    .map(([index, mutations]) =>
      mutations.reduce((input, each) => applyMutation(input, each, seeds), seeds[index] as Buffer),
    );
}

/** Random bytes, biased towards the interesting ones. */
export function randomBytes(maxLength = 256): fc.Arbitrary<Buffer> {
  return fc
    .array(fc.oneof(fc.constantFrom(...INTERESTING_BYTES), fc.integer({ min: 0, max: 255 })), { maxLength })
    .map((bytes) => Buffer.from(bytes));
}

/** Where to cut a stream of `length` bytes: sorted, distinct offsets inside it, from fractions. */
export function cutPoints(length: number, fractions: number[]): number[] {
  const points = new Set<number>();
  for (const fraction of fractions) {
    const at = Math.floor(fraction * length);
    if (at > 0 && at < length) {
      points.add(at);
    }
  }
  return [...points].sort((a, b) => a - b);
}

/** The pieces of `bytes` cut at `points`. */
export function splitAt(bytes: Buffer, points: number[]): Buffer[] {
  const pieces: Buffer[] = [];
  let from = 0;
  for (const at of points) {
    pieces.push(bytes.subarray(from, at));
    from = at;
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

/** Fractions for cutPoints: none, a few, or many (down to single bytes for short inputs). */
export const splits: fc.Arbitrary<number[]> = fc.oneof(
  fc.constant<number[]>([]),
  fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
  fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 64 }),
);

/** Every split a corpus file is replayed with: whole, byte by byte, halves, thirds. */
export function corpusSplits(length: number): number[][] {
  return [
    [],
    Array.from({ length: Math.max(0, length - 1) }, (_, i) => i + 1),
    cutPoints(length, [0.5]),
    cutPoints(length, [1 / 3, 2 / 3]),
  ];
}

/** Throws with `message` (and what differed) unless `actual` and `expected` are deeply equal. */
export function assertEqual(actual: unknown, expected: unknown, message: string): void {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new Error(`${message}\n  actual:   ${fc.stringify(actual)}\n  expected: ${fc.stringify(expected)}`);
  }
}

export function assert(condition: boolean, message: string): asserts condition {
  if (!condition) {
    throw new Error(message);
  }
}
