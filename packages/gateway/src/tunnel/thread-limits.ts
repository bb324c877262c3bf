import type { ThreadSlots } from '../shared-state.ts';

/**
 * Concurrent connections per plan in this process, released exactly once whatever way a connection
 * ends (the fleet's slots in Redis keep one of these as their local count).
 */
export class ThreadLimits implements ThreadSlots {
  private readonly active = new Map<string, number>();

  /** Takes a slot; answers a release function, or null when the plan is at its limit. */
  acquire(planId: string, limit: number): (() => void) | null {
    const current = this.active.get(planId) ?? 0;
    if (current >= limit) {
      return null;
    }
    this.active.set(planId, current + 1);
    let isReleased = false;
    return () => {
      if (isReleased) {
        return;
      }
      isReleased = true;
      const now = (this.active.get(planId) ?? 1) - 1;
      if (now <= 0) {
        this.active.delete(planId);
      } else {
        this.active.set(planId, now);
      }
    };
  }

  count(planId: string): number {
    return this.active.get(planId) ?? 0;
  }

  /**
   * Gives back every slot still held, when the process stops (after its connections closed, whose own
   * releases normally leave nothing). The one place a store shared by many processes gives this one's
   * leases back at once rather than when they expire. Answers how many were still held.
   */
  releaseAll(): number {
    let held = 0;
    for (const count of this.active.values()) {
      held += count;
    }
    this.active.clear();
    return held;
  }

  /** Slots held now, per plan (a live view: read it, do not keep it). */
  perPlan(): ReadonlyMap<string, number> {
    return this.active;
  }
}
