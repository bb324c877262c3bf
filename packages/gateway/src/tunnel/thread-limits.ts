/** Concurrent connections per plan, released exactly once whatever way a connection ends. */
export class ThreadLimits {
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

  /** Slots held now, per plan (a live view: read it, do not keep it). */
  perPlan(): ReadonlyMap<string, number> {
    return this.active;
  }
}
