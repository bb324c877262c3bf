// A synthetic residential pool shaped like a real one: 200 countries with a long tail (the first holds
// about a sixth of the pool, the last under a thousandth), ~1,400 states, ~8,000 cities and ~30,000
// postal codes, ~5,000 ASNs (a country's first carriers hold most of it) and 5% risky exits. Each
// exit is an inventory row, which the bench loads as the gateway's store does (gateway-exits.ts).
// Deterministic: the same seed, the same pool.
import type { ExitRow } from '@bytegate/db/queries';

/** `AB` as a place name starts: `Ab`. */
const title = (code: string) => `${code[0]}${code.slice(1).toLowerCase()}`;
const CREATED_AT = new Date(0);

/** mulberry32: small, fast and good enough to shape a pool. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cumulative Zipf weights over `count` ranks: rank r weighs 1 / (r + 1)^s. */
function zipf(count: number, s: number): Float64Array {
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let rank = 0; rank < count; rank++) {
    total += 1 / (rank + 1) ** s;
    cumulative[rank] = total;
  }
  return cumulative.map((value) => value / total);
}

/** The rank a uniform draw falls on. */
function draw(cumulative: Float64Array, u: number): number {
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((cumulative[middle] as number) < u) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

interface Country {
  code: string;
  states: string[];
  cities: Array<{ name: string; state: string; zips: string[] }>;
  cityWeights: Float64Array;
  asns: number[];
  asnWeights: Float64Array;
}

export const COUNTRY_COUNT = 200;

export class SyntheticPool {
  readonly countries: Country[] = [];
  private readonly countryWeights = zipf(COUNTRY_COUNT, 1);
  private readonly localAddresses = Array.from({ length: 256 }, (_, i) => `10.0.${i >> 4}.${i & 15}`);
  private readonly next: () => number;

  constructor(seed = 29) {
    this.next = seededRandom(seed);
    let asn = 1_000;
    for (let rank = 0; rank < COUNTRY_COUNT; rank++) {
      const code = `${String.fromCharCode(65 + Math.floor(rank / 26))}${String.fromCharCode(65 + (rank % 26))}`;
      const states = Array.from(
        { length: Math.max(3, Math.round(50 / Math.sqrt(rank + 1))) },
        (_, i) => `${title(code)} State ${i}`,
      );
      const cityCount = Math.max(5, Math.round(400 / (rank + 1) ** 0.6));
      const cities = Array.from({ length: cityCount }, (_, i) => ({
        name: `${title(code)} City ${i}`,
        state: states[i % states.length] as string,
        zips: Array.from(
          { length: Math.max(1, Math.round(20 / Math.sqrt(i + 1))) },
          (_, z) => `${code}${String(i * 100 + z).padStart(5, '0')}`,
        ),
      }));
      const share = (this.countryWeights[rank] as number) - (this.countryWeights[rank - 1] ?? 0);
      const asnCount = Math.max(3, Math.round(5_000 * share));
      const asns = Array.from({ length: asnCount }, () => asn++);
      this.countries.push({
        code,
        states,
        cities,
        cityWeights: zipf(cityCount, 1),
        asns,
        asnWeights: zipf(asnCount, 1.2),
      });
    }
  }

  /** The row of exit number `i` (its id is a UUID-shaped string of its own, as the driver gives). */
  rowAt(i: number): ExitRow {
    const next = this.next;
    const country = this.countries[draw(this.countryWeights, next())] as Country;
    const city = country.cities[draw(country.cityWeights, next())] as Country['cities'][number];
    const hasCity = next() >= 0.03;
    return {
      id: uuidOf(i),
      name: `exit ${i}`,
      kind: 'direct',
      poolType: 'residential',
      localAddress: this.localAddresses[i & 255] ?? null,
      upstreamUrl: null,
      country: country.code,
      state: next() < 0.02 ? null : city.state,
      city: hasCity ? city.name : null,
      zip: hasCity && next() >= 0.1 ? (city.zips[Math.floor(next() * city.zips.length)] ?? null) : null,
      asn: next() < 0.01 ? null : (country.asns[draw(country.asnWeights, next())] ?? null),
      asnName: null,
      mobileGeneration: null,
      isRisky: next() < 0.05,
      isActive: true,
      outOfRotationAt: null,
      outOfRotationReason: null,
      createdAt: CREATED_AT,
      changedVersion: i,
    };
  }

  /** A country drawn as traffic is: by its share of the pool. */
  drawCountry(): Country {
    return this.countries[draw(this.countryWeights, this.next())] as Country;
  }

  /** A city of `country` and an ASN of it, drawn by their shares. */
  drawPlace(country: Country): { city: string; asn: number } {
    return {
      city: (country.cities[draw(country.cityWeights, this.next())] as Country['cities'][number]).name,
      asn: country.asns[draw(country.asnWeights, this.next())] as number,
    };
  }

  random(): number {
    return this.next();
  }
}

const uuidBytes = Buffer.alloc(36);
/** A UUID-shaped id, flat in memory like a string the database driver decodes (no concatenation). */
export function uuidOf(i: number): string {
  const hex = (i * 2654435761 + 0x9e3779b9).toString(16).padStart(12, '0').slice(-12);
  uuidBytes.write(`00000000-0000-4000-8000-${hex}`, 'latin1');
  uuidBytes.write(i.toString(16).padStart(8, '0'), 0, 'latin1');
  return uuidBytes.toString('latin1');
}
