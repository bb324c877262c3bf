import type { Targeting } from '@bytegate/contracts/targeting';
import type { Exit } from '../store.ts';
import { exitMatches } from './exit-matches.ts';

/**
 * One pool's exits, bucketed by the targeting's dimensions so that a pick looks at a few exits, not the
 * pool: by country, (country, state), (country, city), (country, ZIP) and ASN, and the whole pool. A
 * pick samples the smallest bucket (or union of buckets) the targeting's positive lists name, checks each
 * sample with `exitMatches` (the one definition of a match: exclusions and the anonymous filter are met
 * by rejection), and after a few misses scans that bucket, so the answer is the linear scan's answer.
 *
 * Memory, at 1,000,000 exits (bench/exits): the Exit objects themselves (~104 B with a 56 B id string)
 * plus ~70 B of index: an id map entry, a slot in the dense array, an Int32 per bucket the exit is in and
 * an Int32 position per bucket (for O(1) removal). Place strings are interned, so a city named by 10,000
 * exits is one string. A changed exit is added as a new object: its old buckets are found from the
 * object the index holds.
 */

const COUNTRY = 0;
const STATE = 1;
const CITY = 2;
const ZIP = 3;
const ASN = 4;
const DIMENSIONS = 5;
/** Samples tried before scanning: a bucket where 1 exit in 10 matches is scanned 1 pick in 30. */
const MAX_TRIES = 32;
/** Chosen buckets this small are scanned at once: exact, and cheaper than tries that may miss. */
const SCAN_AT_MOST = 16;

/** A growable list of slots (positions in the index's dense array); 4 bytes an exit. */
class Bucket {
  slots = new Int32Array(4);
  size = 0;
  /** The pick that last chose this bucket: a list naming it twice counts it once. */
  mark = 0;

  push(slot: number): number {
    if (this.size === this.slots.length) {
      const grown = new Int32Array(this.slots.length * 2);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots[this.size] = slot;
    return this.size++;
  }

  /** Takes out the slot at `position`; the last slot moves into it: returned, or -1 when none moved. */
  removeAt(position: number): number {
    const last = --this.size;
    const moved = position === last ? -1 : (this.slots[last] as number);
    if (moved >= 0) {
      this.slots[position] = moved;
    }
    // Halved when a quarter full, so a bucket emptied by removals gives its memory back.
    if (this.slots.length > 8 && this.size < this.slots.length / 4) {
      this.slots = this.slots.slice(0, this.slots.length / 2);
    }
    return moved;
  }
}

/** A state, city or ZIP bucket's key: the same name in two countries is two places. */
const placeKey = (country: string, name: string) => `${country}|${name}`;

export class ExitIndex {
  /** Dense: an exit's slot is its position here, and the whole pool is this array. */
  private readonly exits: Exit[] = [];
  private readonly slotById = new Map<string, number>();
  /** Per slot and dimension, the exit's position in that dimension's bucket (-1: in none). */
  private positions = new Int32Array(1024 * DIMENSIONS);
  private readonly buckets: Array<Map<string | number, Bucket>> = Array.from(
    { length: DIMENSIONS },
    () => new Map(),
  );
  private readonly strings = new Map<string, string>();
  private picks = 0;
  // Reused by every pick (synchronous, so never shared between two).
  private chosen: Bucket[] = [];
  private trial: Bucket[] = [];

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
   * Adds an exit, or replaces the one with its id (moving it between buckets when its place changed).
   * The index keeps the object and swaps its place strings for shared copies.
   */
  add(exit: Exit): void {
    this.intern(exit);
    const slot = this.slotById.get(exit.id);
    if (slot !== undefined) {
      const previous = this.exits[slot] as Exit;
      if (this.isSamePlace(previous, exit)) {
        this.exits[slot] = exit;
        return;
      }
      this.remove(exit.id);
    }
    const added = this.exits.length;
    this.exits.push(exit);
    this.slotById.set(exit.id, added);
    if ((added + 1) * DIMENSIONS > this.positions.length) {
      const grown = new Int32Array(this.positions.length * 2);
      grown.set(this.positions);
      this.positions = grown;
    }
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
      const key = keyOf(dimension, exit);
      let position = -1;
      if (key !== undefined) {
        const map = this.buckets[dimension] as Map<string | number, Bucket>;
        let bucket = map.get(key);
        if (!bucket) {
          bucket = new Bucket();
          map.set(key, bucket);
        }
        position = bucket.push(added);
      }
      this.positions[added * DIMENSIONS + dimension] = position;
    }
  }

  /** Takes an exit out, in O(1): false when it was not here. */
  remove(id: string): boolean {
    const slot = this.slotById.get(id);
    if (slot === undefined) {
      return false;
    }
    const exit = this.exits[slot] as Exit;
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
      const position = this.positions[slot * DIMENSIONS + dimension] as number;
      if (position < 0) {
        continue;
      }
      const map = this.buckets[dimension] as Map<string | number, Bucket>;
      const key = keyOf(dimension, exit) as string | number;
      const bucket = map.get(key) as Bucket;
      const moved = bucket.removeAt(position);
      if (moved >= 0) {
        this.positions[moved * DIMENSIONS + dimension] = position;
      }
      if (bucket.size === 0) {
        map.delete(key);
      }
    }
    // The last exit takes the freed slot, and its buckets are told its new one.
    const last = this.exits.length - 1;
    if (slot !== last) {
      const lastExit = this.exits[last] as Exit;
      this.exits[slot] = lastExit;
      this.slotById.set(lastExit.id, slot);
      for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
        const position = this.positions[last * DIMENSIONS + dimension] as number;
        this.positions[slot * DIMENSIONS + dimension] = position;
        if (position >= 0) {
          const map = this.buckets[dimension] as Map<string | number, Bucket>;
          const bucket = map.get(keyOf(dimension, lastExit) as string | number) as Bucket;
          bucket.slots[position] = slot;
        }
      }
    }
    this.exits.pop();
    this.slotById.delete(id);
    return true;
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
   * its size; `chosen` left empty means the whole pool. Places named without countries are looked up
   * in every country here (the login's grammar refuses them, saved settings too, but a pick stays right).
   */
  private choose(targeting: Targeting): number {
    let best = this.exits.length;
    this.chosen.length = 0;
    const countries = targeting.countries?.length ? targeting.countries : undefined;
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
      const keys = listOf(dimension, targeting);
      if (!keys?.length) {
        continue;
      }
      const total = this.gather(dimension, keys, countries);
      if (total < best) {
        best = total;
        const chosen = this.chosen;
        this.chosen = this.trial;
        this.trial = chosen;
      }
    }
    return best;
  }

  /** Fills `trial` with the buckets of `keys` (each once) in one dimension; returns their total size. */
  private gather(
    dimension: number,
    keys: readonly (string | number)[],
    countries: readonly string[] | undefined,
  ): number {
    const map = this.buckets[dimension] as Map<string | number, Bucket>;
    const mark = ++this.picks;
    this.trial.length = 0;
    let total = 0;
    for (const key of keys) {
      if (dimension === COUNTRY || dimension === ASN) {
        total += this.take(map.get(key), mark);
      } else if (countries) {
        for (const country of countries) {
          total += this.take(map.get(placeKey(country, String(key))), mark);
        }
      } else {
        for (const country of (this.buckets[COUNTRY] as Map<string, Bucket>).keys()) {
          total += this.take(map.get(placeKey(country, String(key))), mark);
        }
      }
    }
    return total;
  }

  /** Adds a bucket to `trial` unless this pick has it already; its size when added. */
  private take(bucket: Bucket | undefined, mark: number): number {
    if (!bucket || bucket.mark === mark) {
      return 0;
    }
    bucket.mark = mark;
    this.trial.push(bucket);
    return bucket.size;
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
    const isWholePool = this.chosen.length === 0;
    const lists = isWholePool ? 1 : this.chosen.length;
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

  private intern(exit: Exit): void {
    exit.country = this.shared(exit.country);
    if (exit.state !== undefined) {
      exit.state = this.shared(exit.state);
    }
    if (exit.city !== undefined) {
      exit.city = this.shared(exit.city);
    }
    if (exit.zip !== undefined) {
      exit.zip = this.shared(exit.zip);
    }
  }

  private shared(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) {
      return known;
    }
    this.strings.set(text, text);
    return text;
  }

  private isSamePlace(a: Exit, b: Exit): boolean {
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
      if (keyOf(dimension, a) !== keyOf(dimension, b)) {
        return false;
      }
    }
    return true;
  }
}

/**
 * An exit's key in a dimension, spelled as `exitMatches` compares: countries and ASNs as they are,
 * states and cities lower-case, ZIPs upper-case; undefined when the exit has no value there.
 */
function keyOf(dimension: number, exit: Exit): string | number | undefined {
  switch (dimension) {
    case COUNTRY:
      return exit.country;
    case STATE:
      return exit.state === undefined ? undefined : placeKey(exit.country, exit.state.toLowerCase());
    case CITY:
      return exit.city === undefined ? undefined : placeKey(exit.country, exit.city.toLowerCase());
    case ZIP:
      return exit.zip === undefined ? undefined : placeKey(exit.country, exit.zip.toUpperCase());
    default:
      return exit.asn;
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
    default:
      return targeting.asns;
  }
}
