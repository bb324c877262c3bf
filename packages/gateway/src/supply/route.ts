import type { Targeting } from '@bytegate/contracts/targeting';
import type { Exit } from '../store.ts';
import { catalogServes, targetingForCatalog } from './catalog.ts';
import type { VendorSession } from './grammar.ts';
import type { NetworkSource, Source, SupplyPreference } from './source.ts';
import type { SourceHealth } from './source-health.ts';

/** A network exit's id: `network:<source id>|<username>` (its own kept-alive target connections). */
const NETWORK_PREFIX = 'network:';

/** The country a connection's health is counted under: its first targeted country, or any. */
export function healthCountry(targeting: Targeting): string {
  return targeting.countries?.[0] ?? '*';
}

/**
 * The sources that may carry a connection, in the order they are tried: those switched on, with a
 * weight, and (networks) whose catalog lists its place or is empty, able to spell its targeting as
 * narrowed to that catalog (targetingForCatalog; our own exits: the pick itself says whether one matches).
 * By weight times health: a weighted random order (Efraimidis-Spirakis), so shares follow weights and a
 * failing source fades; cost breaks ties. With the cost preference, the cheapest first. Either way a
 * source the probes hold down (its last probes failed, no real dial opened since) comes after the rest.
 */
export function orderSources(
  sources: readonly Source[],
  targeting: Targeting,
  health: Pick<SourceHealth, 'score' | 'isHeldDown'>,
  preference: SupplyPreference,
  random: () => number = Math.random,
): Source[] {
  const country = healthCountry(targeting);
  const ranked: Array<{ source: Source; key: number; isHeldDown: boolean }> = [];
  for (const source of sources) {
    if (source.state !== 'active' || source.weight <= 0) {
      continue;
    }
    if (source.kind === 'network') {
      // Asked only for the countries its catalog lists, a network may spell what the whole list cannot be
      // (one country with a city, for a grammar that takes one country).
      const asked = targetingForCatalog(source.catalog, targeting);
      if (!catalogServes(source.catalog, asked) || source.adapter.cannotExpress(asked) !== null) {
        continue;
      }
    }
    const weight = source.weight * health.score(source.id, country);
    // u^(1/w) for u in (0, 1]: sorting by it descending draws without replacement by weight.
    const key = (1 - random()) ** (1 / weight);
    ranked.push({ source, key, isHeldDown: health.isHeldDown(source) });
  }
  ranked.sort(
    (a, b) =>
      Number(a.isHeldDown) - Number(b.isHeldDown) ||
      (preference === 'cost'
        ? a.source.costPerGbCents - b.source.costPerGbCents || b.key - a.key
        : b.key - a.key || a.source.costPerGbCents - b.source.costPerGbCents),
  );
  return ranked.map((entry) => entry.source);
}

/**
 * The exit a connection takes through a network: the vendor's endpoint with this connection's username
 * and password, which carry the targeting (of several countries, only those the network's catalog lists)
 * and (for a session) the vendor's session id.
 */
export function networkExit(
  source: NetworkSource,
  connectionTargeting: Targeting,
  session: VendorSession | undefined,
): Exit {
  const targeting = targetingForCatalog(source.catalog, connectionTargeting);
  const { username, password } = source.adapter.credentials(source.account, targeting, session);
  return {
    kind: 'upstream',
    id: `${NETWORK_PREFIX}${source.id}|${username}`,
    poolType: source.poolType,
    country: targeting.countries?.[0] ?? '',
    isRisky: false,
    upstream: { ...source.endpoint, username, password },
  };
}

/** The source id in a network exit's id; undefined for one of our own exits. */
export function networkSourceIdOf(exitId: string): string | undefined {
  if (!exitId.startsWith(NETWORK_PREFIX)) {
    return undefined;
  }
  const end = exitId.indexOf('|', NETWORK_PREFIX.length);
  return exitId.slice(NETWORK_PREFIX.length, end === -1 ? undefined : end);
}

/**
 * A session held on a network, as the sticky sessions bind it: the source and a generation, so that the
 * vendor's session id changes whenever ours moves on (a new window, or a failed exit).
 */
export function networkBinding(sourceId: string): string {
  return `${NETWORK_PREFIX}${sourceId}|${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** The source and generation of a binding from networkBinding; undefined for an exit's id. */
export function readNetworkBinding(bound: string): { sourceId: string; generation: string } | undefined {
  const sourceId = networkSourceIdOf(bound);
  if (sourceId === undefined) {
    return undefined;
  }
  return { sourceId, generation: bound.slice(NETWORK_PREFIX.length + sourceId.length + 1) };
}
