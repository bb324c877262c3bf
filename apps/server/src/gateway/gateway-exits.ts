import type { ExitRow } from '@bytegate/db/queries';
import { type Exit, ExitIndex, type PoolType, parseUpstreamUrl } from '@bytegate/gateway';

/** An inventory row as the engine routes through it; null for an upstream URL it cannot read. */
export function toGatewayExit(row: ExitRow): Exit | null {
  const location = {
    id: row.id,
    poolType: row.poolType,
    country: row.country,
    state: row.state?.toLowerCase() ?? undefined,
    city: row.city?.toLowerCase() ?? undefined,
    zip: row.zip ?? undefined,
    asn: row.asn ?? undefined,
    isRisky: row.isRisky,
  };
  if (row.kind === 'upstream') {
    const upstream = row.upstreamUrl ? parseUpstreamUrl(row.upstreamUrl) : null;
    return upstream ? { ...location, kind: 'upstream', upstream } : null;
  }
  return { ...location, kind: 'direct', localAddress: row.localAddress ?? undefined };
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
