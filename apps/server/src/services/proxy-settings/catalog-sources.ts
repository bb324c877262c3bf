import type { Targeting } from '@bytegate/contracts/targeting';
import type { Executor } from '@bytegate/db';
import { listSources } from '@bytegate/db/queries';
import { type GrammarAdapter, grammarAdapter, type PoolType } from '@bytegate/gateway';
import { grammarSpecOf } from '../../gateway/gateway-sources.ts';

/** The option lists a network's catalog can add to: a place it lists is offered only if it can be routed there. */
export type CatalogDimension = 'states' | 'cities' | 'zipcodes' | 'asns';

/** A targeting of one dimension in one country, to ask an adapter whether it can spell that dimension there. */
function sampleTargeting(dimension: CatalogDimension, country: string): Targeting {
  switch (dimension) {
    case 'states':
      // Vendors that take states at all take US states by name or code; 'texas' is one of them.
      return { countries: [country], states: [country === 'US' ? 'texas' : 'x'] };
    case 'cities':
      return { countries: [country], cities: ['x'] };
    case 'zipcodes':
      return { countries: [country], zips: ['10001'] };
    case 'asns':
      return { countries: [country], asns: [7922] };
  }
}

export interface CatalogSources {
  /** The pool's networks that take new connections (state active, a weight): their catalogs add countries. */
  ids: string[];
  /** Those of them whose grammar can spell a dimension in one of the countries. */
  spelling(dimension: CatalogDimension, countries: readonly string[]): string[];
}

/**
 * The wholesale networks whose catalogs feed a pool's option lists: active, weighted, with a grammar the
 * gateway can use. A place is offered only where routing could send a connection for it: a network whose
 * grammar cannot spell cities adds no cities (its catalog may list them; it still adds its countries).
 */
export async function catalogSourcesOf(db: Executor, poolType: PoolType): Promise<CatalogSources> {
  const networks: Array<{ id: string; adapter: GrammarAdapter }> = [];
  for (const row of await listSources(db)) {
    if (row.poolType !== poolType || row.kind !== 'network' || row.state !== 'active' || row.weight <= 0) {
      continue;
    }
    try {
      networks.push({ id: row.id, adapter: grammarAdapter(grammarSpecOf(row)) });
    } catch {
      // A grammar the gateway cannot read routes nothing (gateway-sources.ts leaves it out too).
    }
  }
  return {
    ids: networks.map((network) => network.id),
    spelling: (dimension, countries) =>
      networks
        .filter((network) =>
          countries.some(
            (country) => network.adapter.cannotExpress(sampleTargeting(dimension, country)) === null,
          ),
        )
        .map((network) => network.id),
  };
}
