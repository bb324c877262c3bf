import type { Database } from '@bytegate/db';
import {
  getInventoryVersion,
  isUsageFlushApplied,
  listActiveExits,
  listAllowlist,
  listExitRemovalsSince,
  listExitsChangedSince,
  listPlansForGateway,
  listProxyUsersForGateway,
} from '@bytegate/db/queries';
import {
  type AllowlistAdmission,
  type Exit,
  type ExitIndex,
  type ExitTraffic,
  type GatewayStore,
  type PlanAccess,
  type PlanUsage,
  type PoolType,
  type ProxyUserAccess,
  plainAddress,
  proxyUserIdOfKey,
  type ResolvedAllowlist,
  resolveAllowlistHolders,
  type Source,
  type SourceAlarm,
  type SourceDials,
  type UsageFlush,
} from '@bytegate/gateway';
import { ExitPools } from './gateway-exits.ts';
import { planAccessOf, planAllowlistEntries } from './gateway-plans.ts';
import { SourceCache } from './gateway-sources.ts';
import { billedBytesOf, writeExitHealth, writeMeteredUsage, writeSourceHealth } from './gateway-writes.ts';
import { ProxyUserCache } from './proxy-user-cache.ts';

const PLANS_OVERLAP_MS = 10_000;

/**
 * How one attempt to store metered usage went and how long it took: a write, or the check of a failed
 * one that itself failed (usage then waits in memory: a failed flush too).
 */
export type UsageFlushObserver = (flush: { seconds: number; isStored: boolean }) => void;
const FULL_READ_EVERY_MS = 60_000;

/** A plan's traffic as the database holds it, for the fleet's shared figures (fleet/fleet-traffic.ts). */
export interface PlanTrafficRow {
  totalBytes: number;
  usedBytes: number;
  /** The row's updated_at (ms): a newer total replaces an older one. */
  changedAt: number;
  /** For a proxy user's daily or monthly cap, the period's start (ms): each period is figures of its own. */
  epoch?: number;
}

/**
 * Told what the database says of plans' traffic and of each usage write, when gateways share traffic
 * through Redis: billed bytes per plan in a write, and the plans' used after it (null: not stored).
 */
export interface TrafficObserver {
  planRowsChanged(rows: ReadonlyMap<string, PlanTrafficRow>): void;
  flushing(billed: ReadonlyMap<string, number>): void;
  flushed(billed: ReadonlyMap<string, number>, usedAfter: ReadonlyMap<string, number> | null): void;
}

/**
 * The gateway's store over the database. The hot path reads only memory: plans, allowlist and exits are
 * loaded at start and refreshed every second (plans incrementally, by `updated_at`; exits by the
 * inventory version, see readExits), so a purchase or top-up reaches the gateway within about a second
 * and a query never sits in front of a connection.
 */
export class DbGatewayStore implements GatewayStore {
  private readonly plansById = new Map<string, PlanAccess>();
  private readonly plansByLogin = new Map<string, PlanAccess>();
  private allowlist: ResolvedAllowlist = { holders: new Map(), shared: new Set() };
  private exits = new ExitPools();
  /** Agents' exits, put in and taken out by the agent hub: kept apart so that a whole read keeps them. */
  private readonly agentExits = new Map<string, Exit>();
  private readonly sources = new SourceCache();
  private plansSeenUntil: Date | null = null;
  private lastFullRead = 0;
  /** The inventory version the exits were loaded at; null before the first load. */
  private exitsVersion: number | null = null;
  /** What the last read of the inventory that found it moved read: everything, or what changed. */
  lastExitRead: { isFull: boolean; rows: number; removals: number } | null = null;
  private readonly trafficRows = new Map<string, PlanTrafficRow>();
  private readonly proxyUsers = new ProxyUserCache();
  /** Set when traffic is shared through Redis. */
  trafficObserver: TrafficObserver | undefined;

  constructor(
    private readonly db: Database,
    /** Told of every usage write and its time (metrics); never of an empty drain. */
    private readonly onUsageFlush?: UsageFlushObserver,
  ) {}

  /**
   * A plan's traffic as the database last said (with what this process stored since), or a proxy user's
   * cap under its key.
   */
  planTraffic(key: string): PlanTrafficRow | undefined {
    const proxyUserId = proxyUserIdOfKey(key);
    return proxyUserId === null ? this.trafficRows.get(key) : this.proxyUsers.trafficRowOf(proxyUserId);
  }

  /** Traffic left under a key: a plan's, or what is left of a proxy user's cap (undefined: no cap). */
  trafficLeftBytes(key: string): number | undefined {
    const proxyUserId = proxyUserIdOfKey(key);
    return proxyUserId === null
      ? this.plansById.get(key)?.trafficLeftBytes
      : this.proxyUsers.getById(proxyUserId)?.cap?.leftBytes;
  }

  getProxyUserByLogin(login: string): ProxyUserAccess | undefined {
    return this.proxyUsers.getByLogin(login);
  }

  getProxyUserById(proxyUserId: string): ProxyUserAccess | undefined {
    return this.proxyUsers.getById(proxyUserId);
  }

  getPlanByLogin(login: string): PlanAccess | undefined {
    return this.plansByLogin.get(login);
  }

  getPlanById(planId: string): PlanAccess | undefined {
    return this.plansById.get(planId);
  }

  getAddressHolder(address: string): AllowlistAdmission | undefined {
    const holder = this.allowlist.holders.get(plainAddress(address));
    const plan = holder && this.plansById.get(holder.planId);
    if (!holder || !plan) {
      return undefined;
    }
    if (holder.proxyUserId === undefined) {
      return { plan };
    }
    const proxyUser = this.proxyUsers.getById(holder.proxyUserId);
    return proxyUser?.planId === plan.planId ? { plan, proxyUser } : undefined;
  }

  isSharedAddress(address: string): boolean {
    return this.allowlist.shared.has(plainAddress(address));
  }

  exitIndex(poolType: PoolType): ExitIndex {
    return this.exits.index(poolType);
  }

  /** The agent hub's view of a pool's index: what it adds there survives the inventory's whole reads. */
  agentExitIndex(poolType: PoolType): Pick<ExitIndex, 'add' | 'remove'> {
    return {
      add: (exit) => {
        this.agentExits.set(exit.id, exit);
        this.exits.index(exit.poolType).add(exit);
      },
      remove: (exitId) => {
        this.agentExits.delete(exitId);
        return this.exits.index(poolType).remove(exitId);
      },
    };
  }

  listSources(poolType: PoolType): readonly Source[] {
    return this.sources.ofPool(poolType);
  }

  /**
   * Loads what changed since the last refresh. One read at a time: a call while one is on its way gets
   * the next one, which starts after it (that one may have read before the caller's write committed, and
   * the API's write waits for a read that saw it: local-gateway-changes.ts). Calls meanwhile share it.
   */
  refresh(): Promise<void> {
    if (!this.reading) {
      return this.startReading();
    }
    this.nextReading ??= this.reading
      .catch(() => undefined)
      .then(() => {
        this.nextReading = null;
        return this.reading ?? this.startReading();
      });
    return this.nextReading;
  }

  private reading: Promise<void> | null = null;
  private nextReading: Promise<void> | null = null;

  private startReading(): Promise<void> {
    const reading = this.read().finally(() => {
      if (this.reading === reading) {
        this.reading = null;
      }
    });
    this.reading = reading;
    return reading;
  }

  private async read(): Promise<void> {
    // A row's `updated_at` is its transaction's start, so it can commit seconds after rows stamped later:
    // a window of overlap catches such rows, and a full read now and then whatever a longer one missed.
    const now = Date.now();
    const isFullRead = now - this.lastFullRead >= FULL_READ_EVERY_MS;
    const since =
      this.plansSeenUntil && !isFullRead ? new Date(this.plansSeenUntil.getTime() - PLANS_OVERLAP_MS) : null;
    if (isFullRead) {
      this.lastFullRead = now;
    }
    const rows = await listPlansForGateway(this.db, { since });
    const changedTraffic = new Map<string, PlanTrafficRow>();
    for (const row of rows) {
      const traffic = {
        totalBytes: row.trafficTotalBytes,
        usedBytes: row.trafficUsedBytes,
        changedAt: row.updatedAt.getTime(),
      };
      const known = this.trafficRows.get(row.planId);
      if (!known || known.totalBytes !== traffic.totalBytes || known.usedBytes < traffic.usedBytes) {
        this.trafficRows.set(row.planId, traffic);
        changedTraffic.set(row.planId, traffic);
      }
      const previous = this.plansById.get(row.planId);
      if (previous && previous.login !== row.login) {
        this.plansByLogin.delete(previous.login);
      }
      const plan = planAccessOf(row);
      this.plansById.set(plan.planId, plan);
      this.plansByLogin.set(plan.login, plan);
      if (!this.plansSeenUntil || row.updatedAt > this.plansSeenUntil) {
        this.plansSeenUntil = row.updatedAt;
      }
    }
    // A plan's proxy users are read again whenever its row moved (their writes touch it).
    const changedPlans = isFullRead ? null : new Set(rows.map((row) => row.planId));
    const users = await listProxyUsersForGateway(this.db, {
      planIds: changedPlans === null ? null : [...changedPlans],
    });
    const nowDate = new Date(now);
    for (const [key, figures] of this.proxyUsers.replace(changedPlans, users, nowDate)) {
      changedTraffic.set(key, figures);
    }
    for (const [key, figures] of this.proxyUsers.rollPeriods(nowDate)) {
      changedTraffic.set(key, figures);
    }
    if (changedTraffic.size > 0) {
      this.trafficObserver?.planRowsChanged(changedTraffic);
    }
    this.allowlist = resolveAllowlistHolders([
      ...planAllowlistEntries(await listAllowlist(this.db), this.plansById),
      ...this.proxyUsers.allowlistEntries((planId) => this.plansById.get(planId)?.isActive ?? false),
    ]);
    await this.sources.refresh(this.db);
    await this.readExits();
  }

  /**
   * The inventory can hold a million exits: when a write moved its version, the rows written and
   * removed since the version held are read (in one snapshot, so the version read is exactly what they
   * bring) and applied to the pools' indexes in place. The whole of it is read on the first read, and
   * when removals this store has not seen were pruned (a day after), or the table was truncated.
   */
  private async readExits(): Promise<void> {
    const seen = this.exitsVersion;
    if (seen !== null && (await getInventoryVersion(this.db)).version === seen) {
      return;
    }
    const read = await this.db.transaction(
      async (tx) => {
        const { version, removalsPrunedThrough } = await getInventoryVersion(tx);
        if (seen === null || seen < removalsPrunedThrough) {
          // Out-of-rotation and switched-off exits are not read at all: only those in rotation are picked.
          return { version, isFull: true, rows: await listActiveExits(tx), removedIds: [] };
        }
        const removedIds = await listExitRemovalsSince(tx, { since: seen });
        return { version, isFull: false, rows: await listExitsChangedSince(tx, { since: seen }), removedIds };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    // Applied after the read's transaction, in slices (ExitPools.apply); a whole read into new pools,
    // which take over once complete.
    const pools = read.isFull ? new ExitPools() : this.exits;
    await pools.apply(read.rows, read.removedIds);
    if (read.isFull) {
      // In the same turn as the swap: the hub's changes meanwhile went to the map and the old pools.
      for (const exit of this.agentExits.values()) {
        pools.index(exit.poolType).add(exit);
      }
    }
    this.exits = pools;
    this.exitsVersion = read.version;
    this.lastExitRead = { isFull: read.isFull, rows: read.rows.length, removals: read.removedIds.length };
  }

  /**
   * Writes one drain of the meter in one transaction, under its id (gateway-writes.ts). A failure may
   * still have committed (the answer to COMMIT was lost): `wasUsageFlushed` tells, before the usage is
   * sent again.
   */
  async flushUsage({ flushId, usage }: UsageFlush, now = new Date()): Promise<void> {
    if (usage.size === 0) {
      return;
    }
    const billed = billedBytesOf(usage);
    this.trafficObserver?.flushing(billed);
    const started = performance.now();
    let usedAfter: Map<string, number>;
    try {
      usedAfter = await writeMeteredUsage(
        this.db,
        { flushId, usage, now },
        (proxyUserId) => this.getProxyUserById(proxyUserId)?.planId,
      );
    } catch (error) {
      this.onUsageFlush?.({ seconds: (performance.now() - started) / 1000, isStored: false });
      this.trafficObserver?.flushed(billed, null);
      throw error;
    }
    this.onUsageFlush?.({ seconds: (performance.now() - started) / 1000, isStored: true });
    this.noteUsageStored(usage);
    this.trafficObserver?.flushed(billed, usedAfter);
  }

  /** Adds one drain of the engine's exit health to each exit's hourly row (not billing). */
  flushExitHealth(drained: Map<string, ExitTraffic>, now = new Date()): Promise<void> {
    return writeExitHealth(this.db, drained, now);
  }

  /** Adds one drain of the sources' dials to their days and raises their alarms (not billing). */
  flushSourceHealth(
    drained: { dials: Map<string, SourceDials>; alarms: SourceAlarm[] },
    now = new Date(),
  ): Promise<void> {
    return writeSourceHealth(this.db, drained, now);
  }

  /** Whether a flush whose outcome was lost did commit; throws while the database is unreachable. */
  async wasUsageFlushed(flushId: string): Promise<boolean> {
    const started = performance.now();
    try {
      return await isUsageFlushApplied(this.db, { flushId });
    } catch (error) {
      // The engine writes nothing until this answers: each failed check is a failed flush.
      this.onUsageFlush?.({ seconds: (performance.now() - started) / 1000, isStored: false });
      throw error;
    }
  }

  /** Usage now in the database is no longer "pending" in the meter: lower the cached traffic left. */
  noteUsageStored(usage: Map<string, PlanUsage>): void {
    for (const [planId, totals] of usage) {
      const proxyUserId = proxyUserIdOfKey(planId);
      if (proxyUserId !== null) {
        this.proxyUsers.noteStored(proxyUserId, totals.bytes + totals.extraBytes);
        continue;
      }
      const plan = this.plansById.get(planId);
      if (plan) {
        plan.trafficLeftBytes -= totals.bytes + totals.extraBytes;
      }
      const traffic = this.trafficRows.get(planId);
      if (traffic) {
        traffic.usedBytes += totals.bytes + totals.extraBytes;
      }
    }
  }
}
