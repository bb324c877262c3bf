// The measurements of bench:exits (bench.ts runs them and prints the report; the smoke test runs a
// small pass). Index and scan run in the same process on the same Exit objects.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SavedTargeting, Targeting } from '@bytegate/contracts/targeting';
import { type Exit, type ExitIndex, parseProxyUsername, withSavedTargeting } from '@bytegate/gateway';
import { ExitPools } from '../../apps/server/src/gateway/gateway-exits.ts';
import { exitMatches } from '../../packages/gateway/src/routing/exit-matches.ts';
import { chooseExit, pickExit, type StickyChoice } from '../../packages/gateway/src/routing/select-exit.ts';
import { StickySessions } from '../../packages/gateway/src/routing/sticky-sessions.ts';
import { changeBatch } from './changes.ts';
import { scanChooseExit, scanPickExit } from './linear-scan.ts';
import { SyntheticPool } from './synthetic.ts';

export const GOALS = {
  /** Every case's p99 per pick at the largest size, rotating and sticky. */
  pickP99Us: 10,
  /** The Exit object, its id and the index's share, at the largest size. */
  bytesPerExit: 300,
  /**
   * Applying a batch of 1,000 changed exits holds the event loop at most this long at a time (the
   * store applies in slices of 100; the median batch's longest slice is compared).
   */
  holdMs: 1,
};
export const CHANGES_PER_BATCH = 1_000;
/** Sessions of the sticky mode: each is bound on its first pick and found again on the next ones. */
const SESSIONS = 1_000;
const TARGETINGS_PER_CASE = 64;

export interface BenchOptions {
  sizes: number[];
  /** Index picks per case and mode. */
  indexPicks: number;
  /** Scan picks per case and mode (the scan is slow at a million: keep it to a few dozen there). */
  scanPicks: (size: number) => number;
  /** Batches of 1,000 changes applied at the largest size. */
  changeBatches: number;
  log: (line: string) => void;
}

export interface PickFigures {
  size: number;
  name: string;
  mode: 'rotating' | 'sticky';
  index: { p50: number; p99: number; worstP99: number };
  scan: { p50: number; p99: number; worstP99: number; picks: number };
}

export interface BenchResult {
  picks: PickFigures[];
  /** This process's CPU time over wall time while picking: under 1, other processes took turns. */
  cpuShare: number;
  memory: Array<{ size: number; bytesPerExit: number; objectBytesPerExit: number; loadMs: number }>;
  changes: {
    /** Each batch's time from start to end, the event loop let go between slices. */
    applyMs: number[];
    /** Each batch's CPU time (the process's: other processes' turns left out). */
    cpuMs: number[];
    /** Each batch's longest slice: the longest the event loop was held. */
    holdMs: number[];
    loopDelayMaxMs: number;
    idleLoopDelayMaxMs: number;
    errors: string[];
  };
  agreement: { targetings: number; picks: number; errors: string[] };
}

type Case = { name: string; logins: string[] };
type Session = { targeting: Targeting; key: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A full collection (exposed with --expose-gc, else through V8's flag at run time). */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) {
    return exposed;
  }
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
const gc = collector();

/** Heap and array buffers in use after two full collections (buckets and positions are typed arrays). */
function heapBytes(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** A plan's saved Proxy Settings left at their defaults: the login's parameters decide. */
const SAVED: SavedTargeting = {
  countries: [],
  excludeCountries: [],
  states: [],
  cities: [],
  zips: [],
  asns: [],
  excludeAsns: [],
  anonymous: true,
  rotationMinutes: 30,
};

/** A connection's targeting as the gateway makes it: the login's parameters over the saved settings. */
const targetingOf = (params: string) =>
  withSavedTargeting(parseProxyUsername(`benchlogin1__${params}`), SAVED);

/**
 * Country, country + city, ASN and excluded ASNs (the country's top three), drawn as traffic would be;
 * each case's logins as written (`cr.aa;city.aa_city_3`), sessions adding `sessid`.
 */
function casesOf(pool: SyntheticPool): Case[] {
  const cases: Case[] = ['country', 'country+city', 'ASN', 'excluded ASNs'].map((name) => ({
    name,
    logins: [],
  }));
  for (let i = 0; i < TARGETINGS_PER_CASE; i++) {
    const country = pool.drawCountry();
    const { city, asn } = pool.drawPlace(country);
    const cr = `cr.${country.code.toLowerCase()}`;
    cases[0]?.logins.push(cr);
    cases[1]?.logins.push(`${cr};city.${city.replace(/ /g, '_')}`);
    cases[2]?.logins.push(`${cr};asn.${asn}`);
    cases[3]?.logins.push(`${cr};noasn.${country.asns.slice(0, 3).join(',')}`);
  }
  return cases;
}

const ROUNDS = 5;

/**
 * p50 and p99 in µs of samples in ms taken in ROUNDS rounds: each the median of the rounds' figures,
 * so that a round in which another process took the CPU (a context switch leaves the caches cold for
 * the next picks) does not decide the figure; the worst round's p99 is kept too.
 */
function percentiles(rounds: Float64Array[]): { p50: number; p99: number; worstP99: number } {
  const at = (sorted: Float64Array, q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 1000;
  const figures = rounds.map((samples) => {
    const sorted = samples.slice().sort();
    return { p50: at(sorted, 0.5), p99: at(sorted, 0.99) };
  });
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return {
    p50: median(figures.map((figure) => figure.p50)),
    p99: median(figures.map((figure) => figure.p99)),
    worstP99: Math.max(...figures.map((figure) => figure.p99)),
  };
}

/** Times `picks` calls of `pick` in ROUNDS rounds, cycling through `inputs` (a tenth more first, untimed). */
function time<T>(inputs: readonly T[], picks: number, pick: (input: T) => unknown): Float64Array[] {
  for (let i = 0; i < Math.ceil(picks / 10); i++) {
    pick(inputs[i % inputs.length] as T);
  }
  const perRound = Math.ceil(picks / ROUNDS);
  return Array.from({ length: ROUNDS }, (_, round) => {
    const samples = new Float64Array(perRound);
    for (let i = 0; i < perRound; i++) {
      const input = inputs[(round * perRound + i) % inputs.length] as T;
      const started = performance.now();
      pick(input);
      samples[i] = performance.now() - started;
    }
    return samples;
  });
}

/** A pick with no exit to give answers NO_RAY, as in the gateway: counted as a pick like another. */
function orNone(pick: () => Exit): Exit | undefined {
  try {
    return pick();
  } catch {
    return undefined;
  }
}

function measurePicks(size: number, index: ExitIndex, exits: Exit[], cases: Case[], options: BenchOptions) {
  const figures: PickFigures[] = [];
  for (const { name, logins } of cases) {
    const targetings = logins.map(targetingOf);
    const sessions = Array.from({ length: SESSIONS }, (_, k) => ({
      targeting: targetingOf(`${logins[k % logins.length]};sessid.s${k}`),
      key: `bench|s${k}`,
    }));
    const choice: StickyChoice = { sessions: new StickySessions(), planId: 'bench', defaultTtlMinutes: 30 };
    const bindings = new Map<string, { exitId: string; expiresAt: number }>();
    const scanPicks = options.scanPicks(size);
    const pickRotating = (t: Targeting) => orNone(() => pickExit(index, t));
    const pickSticky = (s: Session) => orNone(() => chooseExit(index, s.targeting, choice));
    const scanSticky = (s: Session) => scanChooseExit(exits, s.targeting, s.key, bindings, 1_800_000);
    const rotating = {
      index: percentiles(time(targetings, options.indexPicks, pickRotating)),
      scan: { ...percentiles(time(targetings, scanPicks, (t) => scanPickExit(exits, t))), picks: scanPicks },
    };
    const sticky = {
      index: percentiles(time(sessions, options.indexPicks, pickSticky)),
      scan: { ...percentiles(time(sessions, scanPicks, scanSticky)), picks: scanPicks },
    };
    figures.push({ size, name, mode: 'rotating', ...rotating }, { size, name, mode: 'sticky', ...sticky });
    options.log(
      `  ${name}: index p99 ${rotating.index.p99.toFixed(1)} / ${sticky.index.p99.toFixed(1)} µs, ` +
        `scan p50 ${rotating.scan.p50.toFixed(0)} µs`,
    );
  }
  return figures;
}

/**
 * Whether the index gives exactly what the scan finds: every pick matches (none when nothing does),
 * and every match of a narrow targeting turns up. Errors are described, none expected.
 */
function checkAgreement(index: ExitIndex, exits: Exit[], targetings: Targeting[]) {
  const errors: string[] = [];
  let picks = 0;
  for (const targeting of targetings) {
    const matching = exits.filter((exit) => exitMatches(exit, targeting));
    const isNarrow = matching.length <= 8;
    const seen = new Set<string>();
    for (let i = 0; i < (isNarrow ? 300 : 40); i++, picks++) {
      const exit = index.pick(targeting);
      if (
        exit === undefined
          ? matching.length > 0
          : !exitMatches(exit, targeting) || index.get(exit.id) !== exit
      ) {
        errors.push(`${JSON.stringify(targeting)} gave ${exit?.id ?? 'none'} (${matching.length} match)`);
        break;
      }
      if (exit) {
        seen.add(exit.id);
      }
    }
    if (isNarrow && seen.size !== matching.length) {
      errors.push(`${JSON.stringify(targeting)} reached ${seen.size} of its ${matching.length} matches`);
    }
  }
  return { targetings: targetings.length, picks, errors };
}

/** Batches of 1,000 changes applied as the store applies a refresh, and the event loop's delay meanwhile. */
async function measureChanges(pools: ExitPools, pool: SyntheticPool, size: number, batches: number) {
  const prepared = Array.from({ length: batches }, (_, round) => changeBatch(pools, pool, size, round));
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  // The same idle loop with nothing applied: the machine's own noise, for comparison.
  histogram.enable();
  for (let round = 0; round < batches; round++) {
    await sleep(20);
  }
  histogram.disable();
  const idleLoopDelayMaxMs = histogram.max / 1e6;
  histogram.reset();
  const applyMs: number[] = [];
  const cpuMs: number[] = [];
  const holdMs: number[] = [];
  // From a collected heap: the picks' scans leave megabytes of garbage a batch should not pay for.
  heapBytes();
  histogram.enable();
  for (const batch of prepared) {
    await sleep(20);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const applied = await pools.apply(batch.rows, batch.removedIds);
    const cpu = process.cpuUsage(cpuBefore);
    applyMs.push(performance.now() - started);
    cpuMs.push((cpu.user + cpu.system) / 1000);
    holdMs.push(applied.longestSliceMs);
  }
  await sleep(20);
  histogram.disable();
  const errors = [...prepared.flatMap((batch) => batch.check()), ...pools.index('residential').verify()];
  return { applyMs, cpuMs, holdMs, loopDelayMaxMs: histogram.max / 1e6, idleLoopDelayMaxMs, errors };
}

/**
 * One size: the pool loaded from rows as the store loads it, its memory, the picks, the agreement
 * with the scan and, at the largest size, the changes. Its own function, so nothing of it outlives it.
 */
async function measureSize(size: number, isLargest: boolean, options: BenchOptions, result: BenchResult) {
  options.log(`${size.toLocaleString('en-US')} exits: loading...`);
  const pool = new SyntheticPool(29);
  const cases = casesOf(pool);
  const before = heapBytes();
  let pools = new ExitPools();
  const loadStarted = performance.now();
  for (let start = 0; start < size; start += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, size - start) }, (_, k) => pool.rowAt(start + k));
    await pools.apply(rows);
  }
  const loadMs = performance.now() - loadStarted;
  const withIndex = heapBytes();
  // The same Exit objects in a plain array (the scan's, as the store held them before), the index
  // dropped: what the objects alone take. Then indexed again for the picks.
  const exits = new Array<Exit>(size);
  let at = 0;
  for (const exit of pools.index('residential')) {
    exits[at++] = exit;
  }
  pools = new ExitPools();
  const arrayBytes = 8 * size;
  const objectBytesPerExit = (heapBytes() - before - arrayBytes) / size;
  for (const exit of exits) {
    pools.index('residential').add(exit);
  }
  const index = pools.index('residential');
  result.memory.push({ size, bytesPerExit: (withIndex - before) / size, objectBytesPerExit, loadMs });
  options.log(`  ${((withIndex - before) / size).toFixed(0)} B an exit, loaded in ${loadMs.toFixed(0)} ms`);
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  result.picks.push(...measurePicks(size, index, exits, cases, options));
  const cpu = process.cpuUsage(cpuBefore);
  result.cpuShare = (cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore);
  const targetings = cases.map((each) => each.logins.map(targetingOf));
  const sample = targetings.flatMap((list) => (size <= 10_000 ? list : list.slice(0, 8)));
  // Narrow ones too: a city and an ASN together often leave a handful of exits, or none.
  const narrow = (cases[1]?.logins ?? []).map((login, i) => {
    const asn = cases[2]?.logins[i]?.split(';asn.')[1] ?? '';
    return targetingOf(`${login};asn.${asn}`);
  });
  const agreement = checkAgreement(index, exits, [...sample, ...narrow.slice(0, size <= 10_000 ? 64 : 8)]);
  result.agreement.targetings += agreement.targetings;
  result.agreement.picks += agreement.picks;
  result.agreement.errors.push(...agreement.errors);
  if (isLargest) {
    options.log(`  applying ${options.changeBatches} batches of ${CHANGES_PER_BATCH} changes...`);
    result.changes = await measureChanges(pools, pool, size, options.changeBatches);
  }
}

export async function runExitsBench(options: BenchOptions): Promise<BenchResult> {
  const result: BenchResult = {
    picks: [],
    cpuShare: 0,
    memory: [],
    changes: { applyMs: [], cpuMs: [], holdMs: [], loopDelayMaxMs: 0, idleLoopDelayMaxMs: 0, errors: [] },
    agreement: { targetings: 0, picks: 0, errors: [] },
  };
  const largest = Math.max(...options.sizes);
  for (const size of options.sizes) {
    await measureSize(size, size === largest, options, result);
  }
  return result;
}
