import { MAX_GRANT_BYTES, type TrafficAllowance } from '@bytegate/gateway';
import type { PlanTrafficRow, TrafficObserver } from '../db-gateway-store.ts';
import { DegradedBudgets } from './fleet-degraded.ts';
import type { FleetMember } from './fleet-member.ts';
import { DRAW, SETTLE, SYNC } from './fleet-traffic-scripts.ts';

/** What a gateway may run on beyond what Redis knows, per plan: the overdraft bound is N × this. */
export const CREDIT_BYTES = 1024 * 1024;
const MIN_DRAW_BYTES = 64 * 1024;
const MAX_DRAW_BYTES = 8 * 1024 * 1024;
/** A reserve unused this long goes back to the fleet. */
const IDLE_RETURN_MS = 2_000;

interface PlanState {
  /** Drawn from the fleet and not yet granted to a connection (negative: running on credit). */
  reserve: number;
  /** Granted to connections and not yet billed or given back. */
  granted: number;
  /** Metered and handed to a usage write that has not answered yet. */
  flushing: number;
  /** What the fleet had left after the last draw (undefined before one). */
  fleetLeft: number | undefined;
  drawing: Promise<void> | null;
  /** Settles sent and not answered yet (a heartbeat's absolute figure waits for them). */
  settling: number;
  /** What the last draw granted (0: the fleet had nothing left then). */
  lastGrant: number | undefined;
  lastUse: number;
  /** The plan's total as this process last read it: a lower one gives the reserve up. */
  knownTotal: number | undefined;
}

/**
 * Traffic shared by every gateway serving a plan. Per plan a Redis hash holds the plan's `total` (with
 * the time of the row it came from, `at`), its `used` (the database's figure, only ever raised) and, per
 * member, `m:<id>`: the billed bytes that member answers for and the database does not hold yet (drawn
 * and not handed out, granted to connections, metered and not yet stored). What the fleet may still
 * grant is total − used − Σ members. A draw computes that, grants a slice, and writes the member's new
 * figure in one script; that figure is absolute, so a lost answer is mended by the next write. A stored
 * usage write lowers it by its bytes instead (settle: a draw may be on its way).
 *
 * A proxy user's traffic cap is shared the same way, under its key (`pu:<id>`, one hash per cap period).
 *
 * Connections take their grants synchronously from this process's reserve; the reserve is refilled ahead
 * of need. When it runs dry before a refill lands, a connection may run on credit up to CREDIT_BYTES that
 * Redis does not know of yet: that credit, once per gateway, is the overdraft bound (README).
 */
export class FleetTrafficAllowance implements TrafficAllowance, TrafficObserver {
  private readonly plans = new Map<string, PlanState>();
  /**
   * The database's figures that Redis has not taken yet: a plan's new total read while Redis was away
   * (or while a write to it failed) must still reach it, or the fleet would go on drawing against the
   * old total until the plan's row next changed.
   */
  private readonly unsynced = new Map<string, PlanTrafficRow>();
  private readonly idleTimer: NodeJS.Timeout;
  /** While Redis is away: what this process may still grant per plan (fleet-degraded.ts). */
  private readonly degraded = new DegradedBudgets();

  constructor(
    private readonly member: FleetMember,
    private readonly pendingBytes: (planId: string) => number,
    private readonly planTraffic: (planId: string) => PlanTrafficRow | undefined,
    /** The plan's traffic left as this process's store last read it: the limit while Redis is away. */
    private readonly leftBytes: (planId: string) => number | undefined,
  ) {
    const redis = member.redis;
    redis.defineCommand('bytegateDraw', { numberOfKeys: 1, lua: DRAW });
    redis.defineCommand('bytegateSyncPlan', { numberOfKeys: 1, lua: SYNC });
    redis.defineCommand('bytegateSettle', { numberOfKeys: 1, lua: SETTLE });
    member.addWriter((pipeline) => {
      for (const [planId, state] of this.plans) {
        // Not while a draw or a settle is on its way: the heartbeat's pipeline goes out at once, ahead of
        // them, and its figure (from before they landed) would then be changed by them a second time.
        if (!state.drawing && state.settling === 0) {
          pipeline.hset(this.key(planId), `m:${member.id}`, this.held(planId));
        }
      }
    });
    this.idleTimer = setInterval(() => this.returnIdle(), IDLE_RETURN_MS);
    this.idleTimer.unref();
    member.onRejoin(() => {
      this.degraded.end();
      this.syncChangedRows();
    });
  }

  /** A plan's hash; a proxy user's daily or monthly cap has one per period (its epoch). */
  private key(planId: string): string {
    const epoch = this.planTraffic(planId)?.epoch;
    return this.member.key(epoch ? `traffic:${planId}@${epoch}` : `traffic:${planId}`);
  }

  private state(planId: string): PlanState {
    let state = this.plans.get(planId);
    if (!state) {
      state = {
        reserve: 0,
        granted: 0,
        flushing: 0,
        fleetLeft: undefined,
        drawing: null,
        settling: 0,
        lastGrant: undefined,
        lastUse: 0,
        knownTotal: this.planTraffic(planId)?.totalBytes,
      };
      this.plans.set(planId, state);
    }
    return state;
  }

  /** Billed bytes this process answers for that the database does not hold yet: its figure in Redis. */
  held(planId: string): number {
    const state = this.plans.get(planId);
    if (!state) {
      return this.pendingBytes(planId);
    }
    return Math.max(0, state.reserve) + state.granted + state.flushing + this.pendingBytes(planId);
  }

  take(planId: string, wanted: number): number {
    const state = this.state(planId);
    if (this.member.isDegraded) {
      // This process's own view (what the database said, less what this process has used since), and
      // no more than its budget for the outage: the reserve it drew, and a bounded credit.
      const viewLeft = this.leftBytes(planId) ?? 0;
      const available = this.ownView(planId, state);
      const grant = this.degraded.take(planId, wanted, MIN_DRAW_BYTES, available, state.reserve, viewLeft);
      // What came out of the reserve is no longer in it (the fleet counts it as this member's either way).
      state.reserve -= Math.min(Math.max(0, state.reserve), grant);
      state.granted += grant;
      return grant;
    }
    state.lastUse = Date.now();
    const share = Math.max(wanted, Math.min(MAX_GRANT_BYTES, Math.floor(state.reserve / 4)));
    let grant = Math.min(share, Math.max(0, state.reserve));
    if (grant < wanted && (state.fleetLeft ?? 0) > 0) {
      // The reserve ran dry before its refill: credit, bounded, until the refill lands.
      const credit = Math.max(0, CREDIT_BYTES + Math.min(0, state.reserve - grant));
      grant += Math.min(wanted - grant, credit);
    }
    state.reserve -= grant;
    state.granted += grant;
    // Refilled at half the last slice, so a fast download rarely finds the reserve dry.
    const lowWater = Math.max(MIN_DRAW_BYTES, Math.floor((state.lastGrant ?? 0) / 2));
    // Not once the fleet said it has nothing left: connections then end (whenAvailable) rather than
    // ask Redis again and again until the plan's row says it is used up.
    if (state.reserve < lowWater && !this.isExhausted(state)) {
      void this.draw(planId, MIN_DRAW_BYTES - Math.min(0, state.reserve));
    }
    return grant;
  }

  /** While Redis is away: what the database said the plan had left, less what this process used since. */
  private ownView(planId: string, state: PlanState): number {
    return (this.leftBytes(planId) ?? 0) - this.pendingBytes(planId) - state.flushing - state.granted;
  }

  whenAvailable(planId: string): Promise<void> | null {
    if (this.member.isDegraded) {
      // The outage's budget spent: wait for Redis (or look again); the plan's own view used up: the end.
      const isWaiting = this.degraded.isSpent(planId) && this.ownView(planId, this.state(planId)) > 0;
      return isWaiting ? this.degraded.whenMore() : null;
    }
    const state = this.state(planId);
    if (state.drawing) {
      return state.drawing;
    }
    if (state.reserve > 0) {
      // The plan has traffic here: what holds the connection is something else (its proxy user's cap),
      // and drawing for the plan would only pile up a reserve (it reached 173 MB against a 20 MB cap).
      return Promise.resolve();
    }
    if (this.isExhausted(state)) {
      return null;
    }
    return this.draw(planId, MIN_DRAW_BYTES - Math.min(0, state.reserve));
  }

  /** The last draw found nothing left in the fleet (a new connection's prepare asks again). */
  private isExhausted(state: PlanState): boolean {
    return state.lastGrant === 0 && (state.fleetLeft ?? 0) <= 0;
  }

  release(planId: string, bytes: number): void {
    const state = this.state(planId);
    state.granted = Math.max(0, state.granted - bytes);
  }

  giveBack(planId: string, bytes: number): void {
    this.release(planId, bytes);
    if (this.member.isDegraded) {
      this.degraded.giveBack(planId, bytes);
    } else {
      this.state(planId).reserve += bytes;
    }
  }

  outstanding(planId: string): number {
    return this.plans.get(planId)?.granted ?? 0;
  }

  /** Draws ahead for a new connection; false when the fleet has nothing left for the plan. */
  async prepare(planId: string): Promise<boolean> {
    if (this.member.isDegraded) {
      return true;
    }
    const state = this.state(planId);
    state.lastUse = Date.now();
    if (state.reserve <= 0) {
      await this.draw(planId, MIN_DRAW_BYTES - state.reserve);
    }
    return this.member.isDegraded || state.reserve > 0;
  }

  /** One draw at a time per plan; a caller during one waits for it. */
  private draw(planId: string, need: number): Promise<void> {
    const state = this.state(planId);
    state.drawing ??= this.drawOnce(planId, state, need).finally(() => {
      state.drawing = null;
    });
    return state.drawing;
  }

  private async drawOnce(planId: string, state: PlanState, need: number): Promise<void> {
    const { redis, id, alivePrefix } = this.member;
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const [grant, left] = await redis.bytegateDraw(
          this.key(planId),
          id,
          this.held(planId),
          need,
          alivePrefix,
          MIN_DRAW_BYTES,
          MAX_DRAW_BYTES,
        );
        if (grant >= 0) {
          state.reserve += grant;
          state.fleetLeft = left;
          state.lastGrant = grant;
          return;
        }
        // The fleet has no figures for the plan yet (or Redis lost them): the database's, then again.
        const row = this.planTraffic(planId);
        if (!row) {
          state.fleetLeft = 0;
          state.lastGrant = 0;
          return;
        }
        await this.syncPlan(planId, row);
      }
    } catch (error) {
      this.member.failed(error);
    }
  }

  /** Gives the fleet the database's figures for a plan. */
  private async syncPlan(planId: string, row: PlanTrafficRow): Promise<void> {
    await this.member.redis.bytegateSyncPlan(this.key(planId), row.totalBytes, row.changedAt, row.usedBytes);
  }

  /** A refresh saw plans' rows change (a purchase, a refund, usage stored by any gateway). */
  planRowsChanged(rows: ReadonlyMap<string, PlanTrafficRow>): void {
    for (const [planId, row] of rows) {
      this.unsynced.set(planId, row);
      const state = this.plans.get(planId);
      if (state && row.totalBytes < (state.knownTotal ?? row.totalBytes)) {
        // A lower total (a refund, a correction): the reserve was drawn against the old one, and spending
        // it would overdraw the new one. Given up; the next draw asks the fleet again.
        this.giveUpReserve(planId, state);
      }
      if (state) {
        state.knownTotal = row.totalBytes;
      }
    }
    this.syncChangedRows();
  }

  /** Gives Redis the figures it has not taken yet; what fails is kept for the next try (a rejoin). */
  private syncChangedRows(): void {
    if (this.member.isDegraded || this.unsynced.size === 0) {
      return;
    }
    const batch = [...this.unsynced];
    this.unsynced.clear();
    const pipeline = this.member.redis.pipeline();
    for (const [planId, row] of batch) {
      pipeline.bytegateSyncPlan(this.key(planId), row.totalBytes, row.changedAt, row.usedBytes);
    }
    const keep = (error: unknown) => {
      for (const [planId, row] of batch) {
        if (!this.unsynced.has(planId)) {
          this.unsynced.set(planId, row);
        }
      }
      this.member.failed(error);
    };
    pipeline
      .exec()
      .then((results) => {
        const error = results?.find(([failure]) => failure)?.[0];
        if (error) {
          keep(error);
        }
      })
      .catch(keep);
  }

  /** A usage write begins: its bytes are no longer pending but still this process's to answer for. */
  flushing(billed: ReadonlyMap<string, number>): void {
    for (const [planId, bytes] of billed) {
      this.state(planId).flushing += bytes;
    }
  }

  /**
   * A usage write ended. Stored (with the database's used after it), the member's figure drops by what
   * was written and `used` rises by it in one step; failed, the bytes are pending again (the meter has
   * them back).
   */
  flushed(billed: ReadonlyMap<string, number>, usedAfter: ReadonlyMap<string, number> | null): void {
    for (const [planId, bytes] of billed) {
      const state = this.state(planId);
      state.flushing = Math.max(0, state.flushing - bytes);
      const used = usedAfter?.get(planId);
      if (used !== undefined) {
        this.settle(planId, bytes, used);
      }
    }
  }

  /**
   * Tells the fleet a usage write of `bytes` was stored: the member's figure drops by them and `used`
   * rises to the database's figure after it. Sent at once, before any later draw, whose `held` no longer
   * counts those bytes; relative, because a draw already on its way holds a grant this process does not
   * know yet (an absolute figure from now, landing after that draw, would drop the grant and let the
   * other gateways draw those bytes again).
   */
  private settle(planId: string, bytes: number, used: number): void {
    if (this.member.isDegraded) {
      return;
    }
    const state = this.state(planId);
    state.settling += 1;
    this.member.redis
      .bytegateSettle(this.key(planId), this.member.id, bytes, used)
      .catch((error: unknown) => this.member.failed(error))
      .finally(() => {
        state.settling -= 1;
      });
  }

  /** Reserves no connection has drawn on for a while go back, so other gateways can use them. */
  private returnIdle(): void {
    const now = Date.now();
    for (const [planId, state] of this.plans) {
      if (now - state.lastUse < IDLE_RETURN_MS || state.drawing) {
        continue;
      }
      const held = this.giveUpReserve(planId, state);
      if (held === 0) {
        this.plans.delete(planId);
      }
    }
  }

  /**
   * Gives the fleet back what this process drew and no connection took, and tells it at once (sent after
   * any settle on its way; while a draw is, its answer writes the figure). Answers the figure.
   */
  private giveUpReserve(planId: string, state: PlanState): number {
    if (state.reserve > 0) {
      state.reserve = 0;
      state.fleetLeft = undefined;
      state.lastGrant = undefined;
    }
    const held = this.held(planId);
    if (!this.member.isDegraded && !state.drawing) {
      const { redis, id } = this.member;
      const field = `m:${id}`;
      const written =
        held > 0 ? redis.hset(this.key(planId), field, held) : redis.hdel(this.key(planId), field);
      written.catch((error: unknown) => this.member.failed(error));
    }
    return held;
  }

  close(): void {
    clearInterval(this.idleTimer);
    this.degraded.end();
  }
}
