import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { capPeriodStart, type ProxyUserRow, usedInPeriod } from '@bytegate/db/queries';
import { type AllowlistEntry, type ProxyUserAccess, proxyUserKey } from '@bytegate/gateway';
import { savedTargetingFromRow } from '../services/proxy-settings/saved-targeting.ts';
import type { PlanTrafficRow } from './db-gateway-store.ts';

interface Cached {
  access: ProxyUserAccess;
  row: ProxyUserRow;
  /** The start of the cap period `access.cap` was computed for (ms; 0 for a lifetime cap). */
  periodStart: number;
}

const PERIOD_WORDS = { day: 'daily', month: 'monthly', lifetime: 'lifetime' } as const;

/** "1.5 GB": a cap as the customer set it (GB with up to three decimals). */
function capWords(row: ProxyUserRow): string {
  const gb = Number(((row.trafficCapBytes ?? 0) / BYTES_PER_GB).toFixed(3));
  return `${PERIOD_WORDS[row.capPeriod ?? 'lifetime']} traffic cap of ${gb} GB`;
}

/**
 * The gateway's proxy users, in memory: by login and id, with their allowlist entries, each with what is left
 * of its cap in the current period. The store reloads a plan's proxy users whenever the plan's row moves
 * (every write to a proxy user touches its plan), and a new day or month restarts a cap without a read.
 */
export class ProxyUserCache {
  private readonly byId = new Map<string, Cached>();
  private readonly byLogin = new Map<string, ProxyUserAccess>();

  getByLogin(login: string): ProxyUserAccess | undefined {
    return this.byLogin.get(login);
  }

  getById(proxyUserId: string): ProxyUserAccess | undefined {
    return this.byId.get(proxyUserId)?.access;
  }

  /**
   * The proxy users' allowlist entries, for the store's one rule of who an address lets in (only the
   * proved ones ever do); `isPlanActive` says whether a user's plan is.
   */
  *allowlistEntries(isPlanActive: (planId: string) => boolean): Iterable<AllowlistEntry> {
    for (const { row } of this.byId.values()) {
      const proved = new Set(row.allowlistVerified);
      for (const address of row.allowlist) {
        yield {
          address,
          planId: row.planId,
          proxyUserId: row.id,
          isProved: proved.has(address),
          isActive: isPlanActive(row.planId),
        };
      }
    }
  }

  /**
   * Replaces the proxy users of `planIds` (of every plan when null) with `rows`, and returns the caps'
   * figures for the fleet's shared traffic, keyed by proxyUserKey.
   */
  replace(planIds: ReadonlySet<string> | null, rows: ProxyUserRow[], now: Date): Map<string, PlanTrafficRow> {
    for (const [id, cached] of this.byId) {
      if (planIds === null || planIds.has(cached.row.planId)) {
        this.byId.delete(id);
        this.byLogin.delete(cached.access.login);
      }
    }
    const traffic = new Map<string, PlanTrafficRow>();
    for (const row of rows) {
      const cached = this.toCached(row, now);
      this.byId.set(row.id, cached);
      this.byLogin.set(row.login, cached.access);
      const figures = this.trafficRow(cached);
      if (figures) {
        traffic.set(proxyUserKey(row.id), figures);
      }
    }
    return traffic;
  }

  /**
   * A new day or month: caps with that period start again from what the row says of the new period
   * (nothing used, unless usage already landed in it). Returns the caps that moved, for the fleet.
   */
  rollPeriods(now: Date): Map<string, PlanTrafficRow> {
    const moved = new Map<string, PlanTrafficRow>();
    for (const [id, cached] of this.byId) {
      const period = cached.row.capPeriod;
      if (period !== null && period !== 'lifetime') {
        const start = capPeriodStart(period, now)?.getTime() ?? 0;
        if (start !== cached.periodStart) {
          const next = this.toCached(cached.row, now);
          this.byId.set(id, next);
          this.byLogin.set(next.access.login, next.access);
          const figures = this.trafficRow(next);
          if (figures) {
            moved.set(proxyUserKey(id), figures);
          }
        }
      }
    }
    return moved;
  }

  /** The cap's figures as the fleet shares them; undefined for a proxy user without a cap. */
  trafficRow(cached: Cached | undefined): PlanTrafficRow | undefined {
    if (!cached || cached.row.trafficCapBytes === null) {
      return undefined;
    }
    const total = cached.row.trafficCapBytes;
    return {
      totalBytes: total,
      usedBytes: total - (cached.access.cap?.leftBytes ?? 0),
      changedAt: cached.row.updatedAt.getTime(),
      epoch: cached.periodStart,
    };
  }

  trafficRowOf(proxyUserId: string): PlanTrafficRow | undefined {
    return this.trafficRow(this.byId.get(proxyUserId));
  }

  /** Usage stored by this process: the cap has that much less left. */
  noteStored(proxyUserId: string, billedBytes: number): void {
    const cached = this.byId.get(proxyUserId);
    if (!cached) {
      return;
    }
    cached.row.trafficUsedBytes += billedBytes;
    if (cached.periodStart !== 0 && cached.row.periodStart?.getTime() === cached.periodStart) {
      cached.row.periodUsedBytes += billedBytes;
    }
    if (cached.access.cap) {
      cached.access.cap.leftBytes -= billedBytes;
    }
  }

  private toCached(row: ProxyUserRow, now: Date): Cached {
    const period = row.capPeriod;
    const periodStart = period === null ? 0 : (capPeriodStart(period, now)?.getTime() ?? 0);
    const access: ProxyUserAccess = {
      proxyUserId: row.id,
      planId: row.planId,
      login: row.login,
      password: row.password,
      isEnabled: row.isEnabled,
      threadLimit: row.threadLimit ?? undefined,
      cap:
        row.trafficCapBytes === null
          ? undefined
          : { leftBytes: row.trafficCapBytes - usedInPeriod(row, now), description: capWords(row) },
      saved: row.targeting ? savedTargetingFromRow(row.targeting) : undefined,
    };
    return { access, row, periodStart };
  }
}
