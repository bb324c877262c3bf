import type { Exit } from '../store.ts';

// The parts of the exit index (exit-index.ts): its dimensions, its buckets and the numeric keys of
// places, with the strings exits share.

export const COUNTRY = 0;
export const STATE = 1;
export const CITY = 2;
export const ZIP = 3;
export const ASN = 4;
export const DIMENSIONS = 5;

/** A growable list of slots (positions in the index's dense array of exits); 4 bytes an exit. */
export class Bucket {
  slots = new Int32Array(4);
  size = 0;
  /** The pick that last chose this bucket: a list naming it twice counts it once. */
  mark = 0;

  constructor(
    /** Its number in the index's list of buckets, which each exit's cells name. */
    readonly id: number,
    /** Its key in its dimension's map. */
    readonly key: number,
  ) {}

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

/**
 * A state, city or ZIP bucket's key: the same name in two countries is two places. A small integer (V8
 * hashes it without allocating) while names stay under two million a dimension; a double beyond.
 */
const COUNTRY_IDS = 1024;
const placeKey = (countryId: number, nameId: number) => nameId * COUNTRY_IDS + countryId;

/**
 * Ids of names folded to the case exitMatches compares them in (states and cities lower, ZIPs upper);
 * each spelling seen maps to its name's id. Never shrinks: bounded by the names the pool has had.
 */
class NameIds {
  private readonly ids = new Map<string, number>();
  private count = 0;

  constructor(private readonly isUpper: boolean) {}

  /** The id of a name as a targeting spells it, when an exit has had it. */
  find(name: string): number | undefined {
    return this.ids.get(name);
  }

  /** The id of an exit's name, given on first sight. */
  idOf(name: string): number {
    const known = this.ids.get(name);
    if (known !== undefined) {
      return known;
    }
    const folded = this.isUpper ? name.toUpperCase() : name.toLowerCase();
    let id = this.ids.get(folded);
    if (id === undefined) {
      id = this.count++;
      this.ids.set(folded, id);
    }
    this.ids.set(name, id);
    return id;
  }
}

/**
 * The numeric bucket keys of exits and targetings, for the spellings exitMatches compares (countries
 * and ASNs as they are, states and cities lower-case, ZIPs upper-case), and the place strings exits
 * share: a city named by 10,000 exits is one string, whose hash V8 keeps, so lookups hash nothing new.
 */
export class PlaceKeys {
  private readonly strings = new Map<string, string>();
  private readonly countryIds = new Map<string, number>();
  private readonly lowerIds = new NameIds(false);
  private readonly upperIds = new NameIds(true);

  /**
   * Gives the exit's place strings the shared copies: `previous`'s (the exit it replaces) when they
   * are the same, without a lookup.
   */
  share(exit: Exit, previous: Exit | undefined): void {
    exit.country = previous?.country === exit.country ? previous.country : this.shared(exit.country);
    if (exit.state !== undefined) {
      exit.state = previous?.state === exit.state ? previous.state : this.shared(exit.state);
    }
    if (exit.city !== undefined) {
      exit.city = previous?.city === exit.city ? previous.city : this.shared(exit.city);
    }
    if (exit.zip !== undefined) {
      exit.zip = previous?.zip === exit.zip ? previous.zip : this.shared(exit.zip);
    }
  }

  /** An exit's key in a dimension (its strings shared first); undefined when it has no value there. */
  keyOf(dimension: number, exit: Exit): number | undefined {
    switch (dimension) {
      case COUNTRY:
        return this.countryId(exit.country);
      case STATE:
        return exit.state === undefined
          ? undefined
          : placeKey(this.countryId(exit.country), this.lowerIds.idOf(exit.state));
      case CITY:
        return exit.city === undefined
          ? undefined
          : placeKey(this.countryId(exit.country), this.lowerIds.idOf(exit.city));
      case ZIP:
        return exit.zip === undefined
          ? undefined
          : placeKey(this.countryId(exit.country), this.upperIds.idOf(exit.zip));
      default:
        return exit.asn;
    }
  }

  /**
   * Calls `found` with the key of each bucket a targeting's value names in a dimension: a place in
   * each of `countries`, or in every country when none is given (the login's grammar and the saved
   * settings refuse a place without a country, but a pick stays right without one).
   */
  findKeys(
    dimension: number,
    value: string | number,
    countries: readonly string[] | undefined,
    found: (key: number) => void,
  ): void {
    if (dimension === ASN) {
      found(value as number);
      return;
    }
    if (dimension === COUNTRY) {
      const countryId = this.countryIds.get(value as string);
      if (countryId !== undefined) {
        found(countryId);
      }
      return;
    }
    const nameId = (dimension === ZIP ? this.upperIds : this.lowerIds).find(String(value));
    if (nameId === undefined) {
      return;
    }
    for (const country of countries ?? this.countryIds.keys()) {
      const countryId = this.countryIds.get(country);
      if (countryId !== undefined) {
        found(placeKey(countryId, nameId));
      }
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

  private countryId(country: string): number {
    let id = this.countryIds.get(country);
    if (id === undefined) {
      id = this.countryIds.size;
      if (id >= COUNTRY_IDS) {
        throw new Error(`More than ${COUNTRY_IDS} countries in one pool: country codes are two letters`);
      }
      this.countryIds.set(country, id);
    }
    return id;
  }
}
