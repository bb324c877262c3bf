import type { PoolType } from '../store.ts';
import type { UpstreamProxy } from '../tunnel/upstream.ts';
import type { SourceCatalog } from './catalog.ts';
import type { GrammarAdapter, NetworkAccount } from './grammar.ts';

/** active: takes new connections; draining: keeps its sticky sessions, takes no new ones; off: nothing. */
export type SourceState = 'active' | 'draining' | 'off';

interface SourceBase {
  id: string;
  name: string;
  poolType: PoolType;
  /** Its share of new connections among the sources that can serve them (0: none). */
  weight: number;
  /** What a GB carried through it costs us, in cents (the routing's tie-breaker or preference). */
  costPerGbCents: number;
  state: SourceState;
  /** What the source probe job last found (wholesale networks; none before their first probe). */
  probe?: SourceProbe | undefined;
}

/** The probe job's record of a source, as the routing weighs it (source-health.ts, isHeldDownByProbes). */
export interface SourceProbe {
  /** Probes failed in a row (0 once one works). */
  failuresInRow: number;
  /** When the first of those failed, ms since the epoch (null while the last one worked). */
  failingSinceMs: number | null;
}

/** Our own exits of the pool (direct or through one upstream each): picked from the pool's index. */
export interface ExitsSource extends SourceBase {
  kind: 'exits';
}

/**
 * A wholesale network: one endpoint in front of the vendor's millions of IPs, with the targeting and
 * the session spelled per connection in the vendor's grammar.
 */
export interface NetworkSource extends SourceBase {
  kind: 'network';
  /** Where to connect (the account's credentials are apart: each connection spells its own). */
  endpoint: Omit<UpstreamProxy, 'username' | 'password'>;
  account: NetworkAccount;
  adapter: GrammarAdapter;
  /**
   * The places it serves (imported from the vendor's list, learned from its exits): a connection for a
   * place a non-empty catalog does not list never goes there. Absent or empty: unknown, tried for any.
   */
  catalog?: SourceCatalog;
}

export type Source = ExitsSource | NetworkSource;

/** How the routing weighs sources: by weight and health (cost breaks ties), or cheapest first. */
export type SupplyPreference = 'weight' | 'cost';
