// A batch of 1,000 changed exits as the store reads them after a refresh: rows moved to another city,
// rows switched off, rows deleted (their ids, from exit_removals) and new rows.
import type { ExitRow } from '@bytegate/db/queries';
import type { Exit } from '@bytegate/gateway';
import type { ExitPools } from '../../apps/server/src/gateway/gateway-exits.ts';
import { type SyntheticPool, uuidOf } from './synthetic.ts';

const MOVED = 500;
const DISABLED = 200;
const DELETED = 100;
const ADDED = 200;

/** An exit as its database row (its place names as the gateway keeps them: lower-case). */
function rowOf(exit: Exit, changes: Partial<ExitRow> = {}): ExitRow {
  return {
    id: exit.id,
    name: `bench ${exit.id.slice(0, 8)}`,
    kind: 'direct',
    poolType: exit.poolType,
    localAddress: exit.kind === 'direct' ? (exit.localAddress ?? null) : null,
    upstreamUrl: null,
    country: exit.country,
    state: exit.state ?? null,
    city: exit.city ?? null,
    zip: exit.zip ?? null,
    asn: exit.asn ?? null,
    asnName: null,
    mobileGeneration: null,
    isRisky: exit.isRisky,
    isActive: true,
    outOfRotationAt: null,
    outOfRotationReason: null,
    createdAt: new Date(0),
    changedVersion: 0,
    ...changes,
  };
}

/**
 * Batch `round` over a pool of `size`: every batch touches exits no other batch touches. `check` says
 * what the index got wrong once it is applied (nothing, expected).
 */
export function changeBatch(pools: ExitPools, pool: SyntheticPool, size: number, round: number) {
  const index = pools.index('residential');
  const existing = (k: number) => uuidOf(((round * (MOVED + DISABLED + DELETED) + k) * 7919) % size);
  const rows: ExitRow[] = [];
  const removedIds: string[] = [];
  const expected = new Map<string, string | undefined>();
  for (let k = 0; k < MOVED + DISABLED + DELETED; k++) {
    const id = existing(k);
    const exit = index.get(id);
    if (!exit) {
      continue;
    }
    if (k < MOVED) {
      const cities = pool.countries.find((country) => country.code === exit.country)?.cities ?? [];
      const city = cities[Math.floor(pool.random() * cities.length)]?.name ?? 'elsewhere';
      rows.push(rowOf(exit, { city }));
      expected.set(id, city.toLowerCase());
    } else if (k < MOVED + DISABLED) {
      rows.push(rowOf(exit, { isActive: false }));
      expected.set(id, undefined);
    } else {
      removedIds.push(id);
      expected.set(id, undefined);
    }
  }
  for (let k = 0; k < ADDED; k++) {
    const row = pool.rowAt(size + round * ADDED + k);
    rows.push(row);
    expected.set(row.id, row.city?.toLowerCase() ?? '');
  }
  const check = () => {
    const errors: string[] = [];
    for (const [id, city] of expected) {
      const exit = index.get(id);
      if (city === undefined ? exit !== undefined : (exit?.city ?? '') !== city) {
        errors.push(`exit ${id}: ${exit ? `in ${exit.city}` : 'absent'}, expected ${city ?? 'absent'}`);
      }
    }
    return errors;
  };
  return { rows, removedIds, check };
}
