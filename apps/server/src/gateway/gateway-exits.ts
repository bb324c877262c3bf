import type { ExitRow } from '@bytegate/db/queries';
import { type Exit, ExitIndex, type PoolType, parseUpstreamUrl } from '@bytegate/gateway';

/**
 * An inventory row as the engine routes through it; null for an upstream URL it cannot read. Written
 * out as two literals, not a spread of the shared fields: V8 (Node 20) gave each spread copy a hidden
 * class of its own, about 350 bytes more an exit and a slow property read wherever exits are read.
 */
export function toGatewayExit(row: ExitRow): Exit | null {
  const state = row.state?.toLowerCase() ?? undefined;
  const city = row.city?.toLowerCase() ?? undefined;
  const zip = row.zip ?? undefined;
  const asn = row.asn ?? undefined;
  const { id, poolType, country, isRisky } = row;
  if (row.kind === 'upstream') {
    const upstream = row.upstreamUrl ? parseUpstreamUrl(row.upstreamUrl) : null;
    return upstream
      ? { id, poolType, country, state, city, zip, asn, isRisky, kind: 'upstream', upstream }
      : null;
  }
  const localAddress = row.localAddress ?? undefined;
  return { id, poolType, country, state, city, zip, asn, isRisky, kind: 'direct', localAddress };
}

/** How long an apply holds the event loop before letting it go (checked every few changes). */
export const SLICE_MS = 0.5;
const CHANGES_BETWEEN_CHECKS = 8;

/** How an apply went: in how many slices, and the longest time one held the event loop. */
export interface AppliedChanges {
  slices: number;
  longestSliceMs: number;
}

/**
 * The gateway's exits in rotation, one index per pool, kept up to date in place from the rows that
 * changed: a changed exit moves between buckets, nothing is read or rebuilt whole.
 */
export class ExitPools {
  private readonly byPool = new Map<PoolType, ExitIndex>();

  /** A pool's index: the same object for the life of these pools, so a dialer holding it sees changes. */
  index(poolType: PoolType): ExitIndex {
    let index = this.byPool.get(poolType);
    if (!index) {
      index = new ExitIndex();
      this.byPool.set(poolType, index);
    }
    return index;
  }

  /**
   * Takes out the removed exits, then adds, moves or takes out each row written: one switched off,
   * out of rotation, or edited by hand into nonsense (validated on the way in) counts as removed.
   * Removals first: an id deleted and written again (by hand) is back. Applied in slices of about
   * SLICE_MS with the event loop let go between them: a change costs µs (memory latency, at a million
   * exits), so a refresh of thousands of changes, or a whole read, would otherwise hold connections
   * for tens of ms. A pick between two slices sees some of the changes, as if it came a moment earlier.
   */
  async apply(rows: readonly ExitRow[], removedIds: readonly string[] = []): Promise<AppliedChanges> {
    const applied: AppliedChanges = { slices: 0, longestSliceMs: 0 };
    const total = removedIds.length + rows.length;
    let next = 0;
    while (next < total) {
      if (next > 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      const started = performance.now();
      let elapsed = 0;
      while (next < total && elapsed < SLICE_MS) {
        const end = Math.min(total, next + CHANGES_BETWEEN_CHECKS);
        for (; next < end; next++) {
          if (next < removedIds.length) {
            this.remove(removedIds[next] as string);
          } else {
            this.write(rows[next - removedIds.length] as ExitRow);
          }
        }
        elapsed = performance.now() - started;
      }
      applied.slices++;
      applied.longestSliceMs = Math.max(applied.longestSliceMs, elapsed);
    }
    return applied;
  }

  private remove(id: string): void {
    for (const index of this.byPool.values()) {
      index.remove(id);
    }
  }

  private write(row: ExitRow): void {
    const exit = row.isActive && row.outOfRotationAt === null ? toGatewayExit(row) : null;
    for (const [poolType, index] of this.byPool) {
      if (!exit || poolType !== exit.poolType) {
        index.remove(row.id);
      }
    }
    if (exit) {
      this.index(exit.poolType).add(exit);
    }
  }
}
