/**
 * Who a client address lets in without credentials: the one rule for plans' and proxy users' allowlists
 * alike (the server's store and the in-memory one both resolve through it).
 *
 * Only a proved entry counts (its owner added it by a request from that very address): an address
 * anyone may type in opens nothing, or one customer could list another's server and have its traffic
 * billed to them, counted in their statistics, and cut off at will. An address opens the one plan or
 * proxy user whose proved entry it is; with none, or with more than one (the API refuses a second
 * customer, but rows from before that rule, or one customer listing it twice, may still meet), it opens
 * nothing and the client must send credentials: which entry came first never decides.
 */

/** One allowlist entry: a plan's own (no proxyUserId) or one of its proxy users'. */
export interface AllowlistEntry {
  address: string;
  planId: string;
  proxyUserId?: string | undefined;
  /** Added by a request from this address: its owner proved they are behind it. */
  isProved: boolean;
  /** The plan is active (a deactivated plan, a disabled or deleted owner's, holds on to nothing beside one). */
  isActive: boolean;
}

/** What an address opens: a plan, as itself or as one of its proxy users. */
export interface AddressHolder {
  planId: string;
  proxyUserId?: string | undefined;
}

export interface ResolvedAllowlist {
  holders: Map<string, AddressHolder>;
  /** Addresses that more than one proved entry claims: they open nothing, and the refusal says why. */
  shared: Set<string>;
}

export function resolveAllowlistHolders(entries: Iterable<AllowlistEntry>): ResolvedAllowlist {
  const proved = new Map<string, AllowlistEntry[]>();
  for (const entry of entries) {
    if (entry.isProved) {
      const list = proved.get(entry.address) ?? [];
      list.push(entry);
      proved.set(entry.address, list);
    }
  }
  const holders = new Map<string, AddressHolder>();
  const shared = new Set<string>();
  for (const [address, all] of proved) {
    const active = all.filter((entry) => entry.isActive);
    const claims = active.length > 0 ? active : all;
    const [only] = claims;
    if (claims.length === 1 && only) {
      holders.set(
        address,
        only.proxyUserId === undefined
          ? { planId: only.planId }
          : { planId: only.planId, proxyUserId: only.proxyUserId },
      );
    } else {
      shared.add(address);
    }
  }
  return { holders, shared };
}

/** The plain text of a client address as allowlists hold it (an IPv4-mapped IPv6 as IPv4). */
export function plainAddress(address: string): string {
  return address.replace(/^::ffff:/, '');
}
