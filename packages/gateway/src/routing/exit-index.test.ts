import type { Targeting } from '@bytegate/contracts/targeting';
import { describe, expect, it } from 'vitest';
import type { Exit } from '../store.ts';
import { ExitIndex } from './exit-index.ts';
import { exitMatches } from './exit-matches.ts';

/** A small deterministic generator (mulberry32), so a failing pool is the same pool next run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COUNTRIES = ['US', 'DE', 'FR', 'GB'];
const CITIES = ['Springfield', 'new york', 'Paris', 'berlin', 'Lyon'];

/** Exits with few distinct values, so that every bucket holds several and some hold one. */
function exitAt(i: number, next: () => number): Exit {
  const of = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const country = of(COUNTRIES);
  return {
    id: `e${i}`,
    kind: 'direct',
    poolType: 'residential',
    country,
    state: next() < 0.9 ? of(['Texas', 'ohio', 'Bavaria']) : undefined,
    city: next() < 0.9 ? of(CITIES) : undefined,
    zip: next() < 0.8 ? of(['10001', 'sw1a 1aa', '75001']) : undefined,
    asn: next() < 0.95 ? 64_500 + Math.floor(next() * 12) : undefined,
    isRisky: next() < 0.1,
  };
}

const TARGETINGS: Targeting[] = [
  {},
  { anonymous: false },
  { countries: ['US'] },
  { countries: ['US', 'DE', 'US'] },
  { countries: ['ZZ'] },
  { countries: ['US'], cities: ['new york', 'springfield', 'new york'] },
  { countries: ['FR'], states: ['texas'], cities: ['paris'] },
  { countries: ['GB'], zips: ['SW1A 1AA'] },
  { countries: ['DE'], zips: ['sw1a 1aa'] },
  { cities: ['berlin'] },
  { asns: [64_503, 64_504] },
  { countries: ['US'], asns: [64_501], excludeCities: ['springfield'] },
  { excludeAsns: [64_500, 64_501, 64_502, 64_503], excludeCountries: ['US'] },
  { countries: ['DE'], excludeStates: ['bavaria'], excludeZips: ['10001'], anonymous: false },
];

/** The ids a pick can give: every one of `expected` turns up within enough picks, and nothing else. */
function pickedIds(index: ExitIndex, targeting: Targeting, expected: number, avoidId?: string): Set<string> {
  const seen = new Set<string>();
  const picks = expected === 0 ? 3 : Math.max(60, expected * 40);
  for (let i = 0; i < picks; i++) {
    const exit = index.pick(targeting, avoidId);
    if (exit) {
      seen.add(exit.id);
    }
  }
  return seen;
}

describe('the exit index', () => {
  it('picks exactly among the exits a scan of the pool finds matching', () => {
    const next = random(29);
    const index = new ExitIndex();
    const pool = Array.from({ length: 3_000 }, (_, i) => exitAt(i, next));
    for (const exit of pool) {
      index.add(exit);
    }
    expect(index.size).toBe(3_000);
    expect(index.verify()).toEqual([]);
    for (const targeting of TARGETINGS) {
      const matching = pool.filter((exit) => exitMatches(exit, targeting));
      for (let i = 0; i < 200; i++) {
        const exit = index.pick(targeting);
        expect(exit === undefined ? 'none' : exitMatches(exit, targeting), JSON.stringify(targeting)).toBe(
          matching.length === 0 ? 'none' : true,
        );
      }
      // A narrow targeting's matches all turn up (the buckets hold each of them).
      const narrow = { ...targeting, asns: [64_507], zips: ['75001'], countries: ['FR'] };
      const few = pool.filter((exit) => exitMatches(exit, narrow)).map((exit) => exit.id);
      expect([...pickedIds(index, narrow, few.length)].sort()).toEqual(few.sort());
    }
  });

  it('draws every matching exit about equally often, a rare match found by a scan after misses', () => {
    const index = new ExitIndex();
    // 200 risky exits in one bucket and 4 that are not: samples mostly miss, then the bucket is scanned.
    for (let i = 0; i < 204; i++) {
      index.add({ id: `r${i}`, kind: 'direct', poolType: 'mobile', country: 'US', isRisky: i >= 4 });
    }
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) {
      const id = index.pick({ countries: ['US'] })?.id ?? 'none';
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['r0', 'r1', 'r2', 'r3']);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(380);
      expect(count).toBeLessThan(620);
    }
  });

  it('avoids the exit it is told to when there is another, and gives it when there is not', () => {
    const index = new ExitIndex();
    for (let i = 0; i < 40; i++) {
      index.add({ id: `a${i}`, kind: 'direct', poolType: 'datacenter', country: 'DE', isRisky: false });
    }
    index.add({ id: 'only-fr', kind: 'direct', poolType: 'datacenter', country: 'FR', isRisky: false });
    for (let i = 0; i < 300; i++) {
      expect(index.pick({ countries: ['DE'] }, 'a7')?.id).not.toBe('a7');
    }
    expect(index.pick({ countries: ['FR'] }, 'only-fr')?.id).toBe('only-fr');
    expect(pickedIds(index, { countries: ['DE'], excludeCountries: [] }, 39, 'a0').has('a0')).toBe(false);
  });

  it('keeps its buckets right through adds, moves and removals in any order', () => {
    const next = random(7);
    const index = new ExitIndex();
    const model = new Map<string, Exit>();
    let made = 0;
    for (let step = 0; step < 2_000; step++) {
      const roll = next();
      const ids = [...model.keys()];
      if (roll < 0.45 || ids.length === 0) {
        const exit = exitAt(made++, next);
        index.add(exit);
        model.set(exit.id, exit);
      } else if (roll < 0.7) {
        // A changed exit: a new object under the same id, often in another place.
        const id = ids[Math.floor(next() * ids.length)] as string;
        const moved = { ...exitAt(made++, next), id };
        index.add(moved);
        model.set(id, moved);
      } else {
        const id = ids[Math.floor(next() * ids.length)] as string;
        expect(index.remove(id)).toBe(true);
        model.delete(id);
      }
      if (step % 500 === 499) {
        expect(index.verify()).toEqual([]);
        expect(index.size).toBe(model.size);
        for (const [id, exit] of model) {
          expect(index.get(id)).toBe(exit);
        }
        // Every exit is still reached through each of its buckets.
        for (const exit of model.values()) {
          const exact: Targeting = {
            countries: [exit.country],
            ...(exit.city ? { cities: [exit.city.toLowerCase()] } : {}),
            ...(exit.zip ? { zips: [exit.zip.toUpperCase()] } : {}),
            ...(exit.asn ? { asns: [exit.asn] } : {}),
            anonymous: false,
          };
          const expected = [...model.values()].filter((other) => exitMatches(other, exact));
          expect(pickedIds(index, exact, expected.length).has(exit.id)).toBe(true);
        }
      }
    }
    expect(index.remove('never-added')).toBe(false);
    for (const id of [...model.keys()]) {
      index.remove(id);
    }
    expect(index.size).toBe(0);
    expect(index.pick({})).toBeUndefined();
    expect([...index]).toEqual([]);
  });

  it('checks a sticky session’s exit by id and targeting', () => {
    const index = new ExitIndex();
    index.add({
      id: 'x',
      kind: 'direct',
      poolType: 'residential',
      country: 'US',
      city: 'Austin',
      isRisky: false,
    });
    expect(index.getMatching('x', { countries: ['US'], cities: ['austin'] })?.id).toBe('x');
    expect(index.getMatching('x', { countries: ['US'], cities: ['dallas'] })).toBeUndefined();
    expect(index.getMatching('y', {})).toBeUndefined();
  });
});
