import type { Executor } from '@bytegate/db';
import { listSourceProbes, listSources, type SourceProbeRow, type SourceRow } from '@bytegate/db/queries';
import {
  type GrammarSpec,
  grammarAdapter,
  type PlanUsage,
  type PoolType,
  parseUpstreamUrl,
  type Source,
  type SourceCatalog,
  type SourceProbe,
} from '@bytegate/gateway';
import { CatalogCache } from './gateway-catalogs.ts';

/** A source's grammar as stored: a vendor's name, or the template with its spelling. */
export function grammarSpecOf(
  row: Pick<SourceRow, 'grammar' | 'template' | 'passwordTemplate'>,
): GrammarSpec {
  return row.grammar === 'template'
    ? {
        grammar: 'template',
        template: row.template ?? '',
        passwordTemplate: row.passwordTemplate ?? undefined,
      }
    : ({ grammar: row.grammar } as GrammarSpec);
}

/**
 * A source row as the engine routes through it; null for a network whose URL or grammar it cannot read
 * (validated on the way in: a row edited by hand into nonsense is left out, not fatal).
 */
export function toGatewaySource(row: SourceRow, catalog?: SourceCatalog): Source | null {
  const base = {
    id: row.id,
    name: row.name,
    poolType: row.poolType,
    weight: row.weight,
    costPerGbCents: row.costPerGbCents,
    state: row.state,
  };
  if (row.kind === 'exits') {
    return { ...base, kind: 'exits' };
  }
  const proxy = row.endpointUrl ? parseUpstreamUrl(row.endpointUrl) : null;
  if (!proxy) {
    return null;
  }
  try {
    const { username, password, ...endpoint } = proxy;
    return {
      ...base,
      kind: 'network',
      endpoint,
      account: { username: username ?? '', password: password ?? '' },
      adapter: grammarAdapter(grammarSpecOf(row)),
      ...(catalog && catalog.size > 0 ? { catalog } : {}),
    };
  } catch {
    return null;
  }
}

/** A source's last probe as the routing weighs it (source-health.ts, isHeldDownByProbes). */
export function toSourceProbe(row: SourceProbeRow): SourceProbe {
  return {
    failuresInRow: row.consecutiveFailures,
    failingSinceMs: row.failingSince?.getTime() ?? null,
  };
}

/**
 * The sources as the gateway routes by them, with their last probes: a handful of rows, read whole each
 * refresh; a row that did not change keeps the source built from it (its adapter, and the template it
 * parsed), with the probe read this time. A network's catalog is read again only when its version moved
 * (gateway-catalogs.ts).
 */
export class SourceCache {
  private byPool = new Map<PoolType, Source[]>();
  private rows = new Map<string, { stamp: string; source: Source | null }>();
  readonly catalogs = new CatalogCache();

  ofPool(poolType: PoolType): readonly Source[] {
    return this.byPool.get(poolType) ?? [];
  }

  /** Reads the sources with their last probes, and the catalogs that changed. */
  async refresh(db: Executor): Promise<void> {
    const [rows, probes] = await Promise.all([listSources(db), listSourceProbes(db)]);
    await this.catalogs.refresh(db, rows);
    this.replace(rows, probes);
  }

  replace(rows: readonly SourceRow[], probes: readonly SourceProbeRow[] = []): void {
    const known = new Map<string, { stamp: string; source: Source | null }>();
    const byPool = new Map<PoolType, Source[]>();
    const probeOf = new Map(probes.map((probe) => [probe.sourceId, probe]));
    for (const row of rows) {
      const stamp = `${row.updatedAt.getTime()}|${this.catalogs.versionOf(row.id) ?? ''}`;
      const before = this.rows.get(row.id);
      const built = before?.stamp === stamp ? before.source : toGatewaySource(row, this.catalogs.of(row.id));
      known.set(row.id, { stamp, source: built });
      const probe = probeOf.get(row.id);
      const source = built && probe ? { ...built, probe: toSourceProbe(probe) } : built;
      if (source) {
        const list = byPool.get(source.poolType) ?? [];
        list.push(source);
        byPool.set(source.poolType, list);
      }
    }
    this.rows = known;
    this.byPool = byPool;
  }
}

/** Bytes per source in the plans' usage of one drain (a proxy user's share is the same bytes again). */
export function sourceUsageOf(
  planUsage: ReadonlyArray<[string, PlanUsage]>,
): Array<{ sourceId: string; carriedBytes: number; billedBytes: number }> {
  const bySource = new Map<string, { sourceId: string; carriedBytes: number; billedBytes: number }>();
  for (const [, totals] of planUsage) {
    for (const [sourceId, bytes] of Object.entries(totals.sourceBytes)) {
      const row = bySource.get(sourceId) ?? { sourceId, carriedBytes: 0, billedBytes: 0 };
      row.carriedBytes += bytes;
      row.billedBytes += bytes + (totals.sourceExtraBytes[sourceId] ?? 0);
      bySource.set(sourceId, row);
    }
  }
  return [...bySource.values()];
}

/** Bytes per exit agent in the plans' usage of one drain: what their partners earn from. */
export function agentUsageOf(
  planUsage: ReadonlyArray<[string, PlanUsage]>,
): Array<{ agentId: string; carriedBytes: number }> {
  const byAgent = new Map<string, number>();
  for (const [, totals] of planUsage) {
    for (const [agentId, bytes] of Object.entries(totals.agentBytes)) {
      byAgent.set(agentId, (byAgent.get(agentId) ?? 0) + bytes);
    }
  }
  return [...byAgent].map(([agentId, carriedBytes]) => ({ agentId, carriedBytes }));
}
