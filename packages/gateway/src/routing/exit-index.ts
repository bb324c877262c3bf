import type { Targeting } from '@bytegate/contracts/targeting';
import type { Exit } from '../store.ts';
import { ASN, Bucket, CITY, COUNTRY, DIMENSIONS, PlaceKeys, STATE, ZIP } from './exit-buckets.ts';
import { exitMatches } from './exit-matches.ts';

/**
 * One pool's exits, bucketed by the targeting's dimensions so that a pick looks at a few exits, not the
 * pool: by country, (country, state), (country, city), (country, ZIP) and ASN, and the whole pool. A
 * pick samples the smallest bucket (or union of buckets) the targeting's positive lists name, checks each
 * sample with `exitMatches` (the one definition of a match: exclusions and the anonymous filter are met
 * by rejection), and after a few misses scans those buckets, so the answer is the linear scan's answer.
 *
 * Memory at 1,000,000 exits (bench/exits): about 290 bytes an exit, of which the Exit object and its id
 * string are 160. The index's ~130: an id map entry (~30), a slot in the dense array of exits (~10),
 * and for each of the five dimensions the exit's slot in its bucket (4 bytes, ~25 with growth room)
 * and two cells, its bucket's number and its position there (8 bytes, ~42 in all), which make removal
 * O(1) without a lookup; the buckets themselves ~10. Place strings are shared. Smaller pools cost more
 * an exit (a bucket costs ~230 bytes however few exits it holds: ~470 B an exit at 100,000).
 *
 * A changed exit is added as a new object under its id: its old buckets are the ones its cells name.
 */

/** Samples tried before scanning: a bucket where 1 exit in 10 matches is scanned 1 pick in 30. */
const MAX_TRIES = 32;
/** Chosen buckets this small are scanned at once: exact, and cheaper than tries that may miss. */
const SCAN_AT_MOST = 16;
/** Per slot and dimension: the bucket's number (-1: in none) and the position in it. */
const CELLS = DIMENSIONS * 2;

export class ExitIndex {
  /** Dense: an exit's slot is its position here, and the whole pool is this array. */
  private readonly exits: Exit[] = [];
  private readonly slotById = new Map<string, number>();
  private cells = new Int32Array(1024 * CELLS);
  private readonly buckets: Array<Map<number, Bucket>> = Array.from({ length: DIMENSIONS }, () => new Map());
  /** Every bucket by its number; numbers of emptied buckets are given again. */
  private readonly bucketList: Array<Bucket | undefined> = [];
  private readonly freeBucketIds: number[] = [];
  private readonly keys = new PlaceKeys();
  private picks = 0;
  // Reused by every pick (synchronous, so never shared between two).
  private chosen: Bucket[] = [];
  private trial: Bucket[] = [];
  private trialTotal = 0;

  get size(): number {
    return this.exits.length;
  }

  values(): IterableIterator<Exit> {
    return this.exits.values();
  }

  [Symbol.iterator](): IterableIterator<Exit> {
    return this.exits.values();
  }

  get(id: string): Exit | undefined {
    const slot = this.slotById.get(id);
    return slot === undefined ? undefined : this.exits[slot];
  }

  /** The exit `id` when it is here and matches the targeting (a sticky session's check of its exit). */
  getMatching(id: string, targeting: Targeting): Exit | undefined {
    const exit = this.get(id);
    return exit && exitMatches(exit, targeting) ? exit : undefined;
  }

  /**
   * Adds an exit, or replaces the one with its id in its slot, leaving and joining only the buckets of
   * what changed (a moved city touches two city buckets). The index keeps the object and gives it the
   * shared copies of its place strings.
   */
  add(exit: Exit): void {
    let slot = this.slotById.get(exit.id);
    const previous = slot === undefined ? undefined : this.exits[slot];
    this.keys.share(exit, previous);
    if (slot === undefined) {
      slot = this.exits.length;
      this.exits.push(exit);
      this.slotById.set(exit.id, slot);
      if ((slot + 1) * CELLS > this.cells.length) {
        const grown = new Int32Array(this.cells.length * 2);
        grown.set(this.cells);
        this.cells = grown;
      }
      this.cells.fill(-1, slot * CELLS, (slot + 1) * CELLS);
    }
    this.exits[slot] = exit;
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
      const key = this.keys.keyOf(dimension, exit);
      const bucketId = this.cells[(slot * DIMENSIONS + dimension) * 2] as number;
      if (bucketId >= 0 && this.bucketList[bucketId]?.key === key) {
        continue;
      }
      if (bucketId >= 0) {
        this.leave(slot, dimension);
      }
      if (key !== undefined) {
        this.join(slot, dimension, key);
      }
    }
  }

  /** Takes an exit out, in O(1): false when it was not here. */
  remove(id: string): boolean {
    const slot = this.slotById.get(id);
    if (slot === undefined) {
      return false;
    }
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
      if ((this.cells[(slot * DIMENSIONS + dimension) * 2] as number) >= 0) {
        this.leave(slot, dimension);
      }
    }
    // The last exit takes the freed slot, and its buckets are told its new one.
    const last = this.exits.length - 1;
    if (slot !== last) {
      const lastExit = this.exits[last] as Exit;
      this.exits[slot] = lastExit;
      this.slotById.set(lastExit.id, slot);
      for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
        const from = (last * DIMENSIONS + dimension) * 2;
        const to = (slot * DIMENSIONS + dimension) * 2;
        const bucketId = this.cells[from] as number;
        const position = this.cells[from + 1] as number;
        this.cells[to] = bucketId;
        this.cells[to + 1] = position;
        if (bucketId >= 0) {
          (this.bucketList[bucketId] as Bucket).slots[position] = slot;
        }
      }
    }
    this.exits.pop();
    this.slotById.delete(id);
    return true;
  }

  /**
   * What is wrong inside, for tests and the bench (a pick hides most of it: exitMatches turns down a
   * wrong exit, and a scan finds a lost one): each exit in exactly the buckets of its place, at the
   * position its cells say, and no bucket holding more.
   */
  verify(): string[] {
    const problems: string[] = [];
    let held = 0;
    this.exits.forEach((exit, slot) => {
      if (this.slotById.get(exit.id) !== slot) {
        problems.push(`${exit.id}: not found at slot ${slot}`);
      }
      for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
        const cell = (slot * DIMENSIONS + dimension) * 2;
        const bucket = this.bucketList[this.cells[cell] as number];
        const key = this.keys.keyOf(dimension, exit);
        if (
          bucket
            ? bucket.key !== key || bucket.slots[this.cells[cell + 1] as number] !== slot
            : key !== undefined
        ) {
          problems.push(`${exit.id}: not in its bucket of dimension ${dimension}`);
        }
        held += bucket ? 1 : 0;
      }
    });
    const sizes = this.bucketList.reduce((sum, bucket) => sum + (bucket?.size ?? 0), 0);
    if (sizes !== held || this.slotById.size !== this.exits.length) {
      problems.push(`buckets hold ${sizes} slots for ${held} memberships, ${this.slotById.size} ids`);
    }
    return problems;
  }

  /** Puts a slot in the bucket of `key` (made when there is none) and notes where. */
  private join(slot: number, dimension: number, key: number): void {
    const map = this.buckets[dimension] as Map<number, Bucket>;
    let bucket = map.get(key);
    if (!bucket) {
      bucket = new Bucket(this.freeBucketIds.pop() ?? this.bucketList.length, key);
      this.bucketList[bucket.id] = bucket;
      map.set(key, bucket);
    }
    const cell = (slot * DIMENSIONS + dimension) * 2;
    this.cells[cell] = bucket.id;
    this.cells[cell + 1] = bucket.push(slot);
  }

  /** Takes a slot out of its bucket in a dimension (the bucket's last slot moves into its place). */
  private leave(slot: number, dimension: number): void {
    const cell = (slot * DIMENSIONS + dimension) * 2;
    const bucket = this.bucketList[this.cells[cell] as number] as Bucket;
    const position = this.cells[cell + 1] as number;
    const moved = bucket.removeAt(position);
    if (moved >= 0) {
      this.cells[(moved * DIMENSIONS + dimension) * 2 + 1] = position;
    }
    this.cells[cell] = -1;
    if (bucket.size === 0) {
      (this.buckets[dimension] as Map<number, Bucket>).delete(bucket.key);
      this.bucketList[bucket.id] = undefined;
      this.freeBucketIds.push(bucket.id);
    }
  }

  /**
   * A random exit among those matching the targeting, other than `avoidId` when there is another: each
   * matching exit equally likely, as with a scan of the pool. Undefined when none matches.
   */
  pick(targeting: Targeting, avoidId?: string): Exit | undefined {
    const total = this.choose(targeting);
    if (total === 0) {
      return undefined;
    }
    if (total > SCAN_AT_MOST) {
      for (let tries = 0; tries < MAX_TRIES; tries++) {
        const exit = this.sample(Math.floor(Math.random() * total));
        if (exit.id !== avoidId && exitMatches(exit, targeting)) {
          return exit;
        }
      }
    }
    return this.scan(targeting, avoidId);
  }

  /**
   * Fills `chosen` with the smallest union of buckets the targeting's positive lists name and returns
   * its size; `chosen` left empty means the whole pool.
   */
  private choose(targeting: Targeting): number {
    let best = this.exits.length;
    this.chosen.length = 0;
    const countries = targeting.countries?.length ? targeting.countries : undefined;
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
      const values = listOf(dimension, targeting);
      if (!values?.length) {
        continue;
      }
      // `trial` gets the dimension's buckets, each once; it becomes `chosen` when smaller.
      const map = this.buckets[dimension] as Map<number, Bucket>;
      const mark = ++this.picks;
      this.trial.length = 0;
      this.trialTotal = 0;
      for (const value of values) {
        this.keys.findKeys(dimension, value, countries, (key) => {
          const bucket = map.get(key);
          if (bucket && bucket.mark !== mark) {
            bucket.mark = mark;
            this.trial.push(bucket);
            this.trialTotal += bucket.size;
          }
        });
      }
      if (this.trialTotal < best) {
        best = this.trialTotal;
        const chosen = this.chosen;
        this.chosen = this.trial;
        this.trial = chosen;
      }
    }
    return best;
  }

  /** The exit at `index` in the chosen buckets taken end to end (the whole pool when none). */
  private sample(index: number): Exit {
    if (this.chosen.length === 0) {
      return this.exits[index] as Exit;
    }
    let rest = index;
    for (const bucket of this.chosen) {
      if (rest < bucket.size) {
        return this.exits[bucket.slots[rest] as number] as Exit;
      }
      rest -= bucket.size;
    }
    throw new Error('sample beyond the chosen buckets');
  }

  /** Every exit of the chosen buckets checked: one matching one drawn evenly (reservoir sampling). */
  private scan(targeting: Targeting, avoidId: string | undefined): Exit | undefined {
    let picked: Exit | undefined;
    let avoided: Exit | undefined;
    let seen = 0;
    const lists = this.chosen.length === 0 ? 1 : this.chosen.length;
    for (let list = 0; list < lists; list++) {
      const bucket = this.chosen[list];
      const count = bucket ? bucket.size : this.exits.length;
      for (let i = 0; i < count; i++) {
        const exit = this.exits[bucket ? (bucket.slots[i] as number) : i] as Exit;
        if (!exitMatches(exit, targeting)) {
          continue;
        }
        if (exit.id === avoidId) {
          avoided = exit;
        } else if (Math.random() * ++seen < 1) {
          picked = exit;
        }
      }
    }
    return picked ?? avoided;
  }
}

/** The targeting's positive list in a dimension. */
function listOf(dimension: number, targeting: Targeting): readonly (string | number)[] | undefined {
  switch (dimension) {
    case COUNTRY:
      return targeting.countries;
    case STATE:
      return targeting.states;
    case CITY:
      return targeting.cities;
    case ZIP:
      return targeting.zips;
    case ASN:
      return targeting.asns;
    default:
      return undefined;
  }
}
