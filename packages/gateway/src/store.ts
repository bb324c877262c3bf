import type { SavedTargeting } from '@bytegate/contracts/targeting';
import type { AgentTunnelOpener } from './agents/agent-link.ts';
import {
  type AllowlistEntry,
  plainAddress,
  type ResolvedAllowlist,
  resolveAllowlistHolders,
} from './allowlist-holders.ts';
import type { Unblocks } from './policy/target-policy.ts';
import { ExitIndex } from './routing/exit-index.ts';
import type { Source } from './supply/source.ts';
import { addUsage, type PlanUsage } from './tunnel/plan-usage.ts';
import type { UpstreamProxy } from './tunnel/upstream.ts';

/**
 * What the engine needs from the rest of the product, and nothing else: the gateway never calls the API.
 * The server implements this over the database; tests use the in-memory store below.
 */

// Saved targeting (codes upper-case, place names lower-case) is the targeting model's, as the login's.
export type { SavedTargeting };

export type PoolType = 'datacenter' | 'residential' | 'mobile';

/** A plan as the gateway authenticates and limits it. */
export interface PlanAccess {
  planId: string;
  login: string;
  password: string;
  poolType: PoolType;
  threadLimit: number;
  /** Traffic left when the store last read it (total minus used, bytes). */
  trafficLeftBytes: number;
  isActive: boolean;
  /** Ports and blocked domains support opened for this customer. */
  unblocks?: Unblocks | undefined;
  /** The plan's saved Proxy Settings: the default targeting of every connection. */
  saved?: SavedTargeting | undefined;
}

/**
 * A proxy user: another credential under a plan, with its own caps. It draws the plan's traffic and
 * holds one of the plan's threads as any connection does; its caps bound its own share on top.
 */
export interface ProxyUserAccess {
  proxyUserId: string;
  planId: string;
  login: string;
  password: string;
  isEnabled: boolean;
  /** Its own limit of concurrent connections (at most the plan's); undefined: the plan's alone. */
  threadLimit?: number | undefined;
  /**
   * Its traffic cap, when it has one: what is left of it in the current period as the store last read
   * it (billed bytes), and the words a refusal names it by ("daily traffic cap of 1.5 GB").
   */
  cap?: { leftBytes: number; description: string } | undefined;
  /** Its own saved Proxy Settings; undefined: the plan's. */
  saved?: SavedTargeting | undefined;
}

/** The meter's and limits' key for a proxy user's share (a plan's key is its id). */
export function proxyUserKey(proxyUserId: string): string {
  return `pu:${proxyUserId}`;
}

/** The proxy user id in a key from proxyUserKey, or null for a plan's key. */
export function proxyUserIdOfKey(key: string): string | null {
  return key.startsWith('pu:') ? key.slice(3) : null;
}

interface ExitLocation {
  id: string;
  poolType: PoolType;
  country: string;
  state?: string | undefined;
  city?: string | undefined;
  zip?: string | undefined;
  asn?: number | undefined;
  /** Flagged by the anonymous filter (known proxy, hosting or abuse ranges). */
  isRisky: boolean;
}

/**
 * An exit node: where customer traffic leaves. `direct` exits leave from this host, optionally bound to
 * a local address (how a pool of many IPs works, and what tests observe); `upstream` exits relay through
 * another HTTP or SOCKS5 proxy; `agent` exits are exit agents connected to this gateway's hub, which
 * resolve and connect from their own address (agents/).
 */
export type Exit =
  | (ExitLocation & { kind: 'direct'; localAddress?: string | undefined })
  | (ExitLocation & { kind: 'upstream'; upstream: UpstreamProxy })
  | (ExitLocation & { kind: 'agent'; link: AgentTunnelOpener });

/** One drain of the meter, under the id that lets the store tell whether it was stored. */
export interface UsageFlush {
  flushId: string;
  usage: Map<string, PlanUsage>;
}

/** What a client address lets in without credentials: a plan, as itself or as one of its proxy users. */
export interface AllowlistAdmission {
  plan: PlanAccess;
  proxyUser?: ProxyUserAccess | undefined;
}

export interface GatewayStore {
  /** The plan behind a proxy login; the store keeps these cached so the hot path never waits on a query. */
  getPlanByLogin(login: string): PlanAccess | undefined;
  getPlanById(planId: string): PlanAccess | undefined;
  /**
   * Who a client address lets in without credentials: the plan, or the proxy user of it, whose proved
   * allowlist entry it is (allowlist-holders.ts: one rule for both, never the first found).
   */
  getAddressHolder(address: string): AllowlistAdmission | undefined;
  /**
   * Whether more than one proved entry claims this address: it opens nothing without credentials, and
   * the refusal says so.
   */
  isSharedAddress?(address: string): boolean;
  /**
   * A pool's exits in rotation, indexed for picks (routing/exit-index.ts). The same object for the
   * store's life (or until a full reload), updated in place as exits change.
   */
  exitIndex(poolType: PoolType): ExitIndex;
  /**
   * The pool's sources of supply (our own exits, wholesale networks); none: its own exits alone, as a
   * store without sources has always routed.
   */
  listSources?(poolType: PoolType): readonly Source[];
  /** A proxy user by its login (logins of plans and proxy users never meet), or by its id. */
  getProxyUserByLogin?(login: string): ProxyUserAccess | undefined;
  getProxyUserById?(proxyUserId: string): ProxyUserAccess | undefined;
  /**
   * Stores one drain of the meter, all of it or none, under its id; once stored, the plans' traffic
   * left counts it. A rejection may hide a flush that was stored but whose answer was lost: the engine
   * asks `wasUsageFlushed` before that usage goes out again (tunnel/usage-flush.ts).
   */
  flushUsage(flush: UsageFlush): Promise<void>;
  /** Whether a flush that failed was stored after all; rejects while the store cannot tell. */
  wasUsageFlushed(flushId: string): Promise<boolean>;
  /**
   * Usage found stored after its flush had failed: the plans' traffic left counts it from now on, as
   * after a flushUsage that succeeded. Called in the same tick as the meter lets go of it.
   */
  noteUsageStored(usage: Map<string, PlanUsage>): void;
}

/** A store held in memory: for tests, and for running the engine without a database. */
export class InMemoryGatewayStore implements GatewayStore {
  private readonly plansByLogin = new Map<string, PlanAccess>();
  /** Allowlist entries, each one proved (a test's allowlist is the customer's own). */
  private readonly allowlist: AllowlistEntry[] = [];
  private resolved: ResolvedAllowlist | null = null;
  private readonly exitsByPool = new Map<PoolType, ExitIndex>();
  private readonly sources: Source[] = [];
  private readonly flushIds = new Set<string>();
  private readonly proxyUsersByLogin = new Map<string, ProxyUserAccess>();
  /** Everything flushed so far, per plan (and per proxy user, under proxyUserKey): what a database would hold. */
  readonly flushed = new Map<string, PlanUsage>();

  addPlan(plan: PlanAccess, allowlist: string[] = []): this {
    this.plansByLogin.set(plan.login, plan);
    for (const address of allowlist) {
      this.allowlist.push({ address, planId: plan.planId, isProved: true, isActive: true });
    }
    this.resolved = null;
    return this;
  }

  addProxyUser(user: ProxyUserAccess, allowlist: string[] = []): this {
    this.proxyUsersByLogin.set(user.login, user);
    for (const address of allowlist) {
      this.allowlist.push({
        address,
        planId: user.planId,
        proxyUserId: user.proxyUserId,
        isProved: true,
        isActive: true,
      });
    }
    this.resolved = null;
    return this;
  }

  getProxyUserByLogin(login: string): ProxyUserAccess | undefined {
    return this.proxyUsersByLogin.get(login);
  }

  getProxyUserById(proxyUserId: string): ProxyUserAccess | undefined {
    return [...this.proxyUsersByLogin.values()].find((user) => user.proxyUserId === proxyUserId);
  }

  /** Takes an address off the proxy users' allowlists it is on. */
  removeProxyUserAddress(address: string): this {
    return this.removeEntries((entry) => entry.address === address && entry.proxyUserId !== undefined);
  }

  /** Takes an address off the plans' allowlists it is on. */
  removeAddress(address: string): this {
    return this.removeEntries((entry) => entry.address === address && entry.proxyUserId === undefined);
  }

  private removeEntries(isRemoved: (entry: AllowlistEntry) => boolean): this {
    const kept = this.allowlist.filter((entry) => !isRemoved(entry));
    this.allowlist.splice(0, this.allowlist.length, ...kept);
    this.resolved = null;
    return this;
  }

  private resolve(): ResolvedAllowlist {
    this.resolved ??= resolveAllowlistHolders(this.allowlist);
    return this.resolved;
  }

  getAddressHolder(address: string): AllowlistAdmission | undefined {
    const holder = this.resolve().holders.get(plainAddress(address));
    const plan = holder && this.getPlanById(holder.planId);
    if (!holder || !plan) {
      return undefined;
    }
    if (holder.proxyUserId === undefined) {
      return { plan };
    }
    const proxyUser = this.getProxyUserById(holder.proxyUserId);
    return proxyUser ? { plan, proxyUser } : undefined;
  }

  isSharedAddress(address: string): boolean {
    return this.resolve().shared.has(plainAddress(address));
  }

  addExit(exit: Exit): this {
    this.exitIndex(exit.poolType).add(exit);
    return this;
  }

  /** Adds a source of supply, or replaces the one with its id (a change of weight or state). */
  setSource(source: Source): this {
    const at = this.sources.findIndex((known) => known.id === source.id);
    this.sources.splice(at === -1 ? this.sources.length : at, at === -1 ? 0 : 1, source);
    return this;
  }

  listSources(poolType: PoolType): readonly Source[] {
    return this.sources.filter((source) => source.poolType === poolType);
  }

  getPlanByLogin(login: string): PlanAccess | undefined {
    return this.plansByLogin.get(login);
  }

  getPlanById(planId: string): PlanAccess | undefined {
    return [...this.plansByLogin.values()].find((plan) => plan.planId === planId);
  }

  exitIndex(poolType: PoolType): ExitIndex {
    let index = this.exitsByPool.get(poolType);
    if (!index) {
      index = new ExitIndex();
      this.exitsByPool.set(poolType, index);
    }
    return index;
  }

  async flushUsage(flush: UsageFlush): Promise<void> {
    if (this.recordFlush(flush)) {
      this.noteUsageStored(flush.usage);
    }
  }

  /** Adds a flush to what is stored, once per id (as the database's usage_flushes do); false if known. */
  protected recordFlush({ flushId, usage }: UsageFlush): boolean {
    if (this.flushIds.has(flushId)) {
      return false;
    }
    this.flushIds.add(flushId);
    addUsage(this.flushed, usage);
    return true;
  }

  async wasUsageFlushed(flushId: string): Promise<boolean> {
    return this.flushIds.has(flushId);
  }

  noteUsageStored(usage: Map<string, PlanUsage>): void {
    for (const [key, totals] of usage) {
      const proxyUserId = proxyUserIdOfKey(key);
      const billed = totals.bytes + totals.extraBytes;
      if (proxyUserId === null) {
        const plan = this.getPlanById(key);
        if (plan) {
          plan.trafficLeftBytes -= billed;
        }
      } else {
        const cap = this.getProxyUserById(proxyUserId)?.cap;
        if (cap) {
          cap.leftBytes -= billed;
        }
      }
    }
  }
}
