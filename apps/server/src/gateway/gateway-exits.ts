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
   * Removals first: an id deleted and written again (by hand) is back.
   */
  apply(rows: readonly ExitRow[], removedIds: readonly string[] = []): void {
    for (const id of removedIds) {
      for (const index of this.byPool.values()) {
        index.remove(id);
      }
    }
    for (const row of rows) {
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
}
