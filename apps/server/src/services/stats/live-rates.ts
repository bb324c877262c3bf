/**
 * The live view's arithmetic: fed a gateway's open connections and running byte counts per plan once a
 * second, it answers each plan's connections now and bytes per second over the last few seconds (the
 * difference of running sums, so no byte is counted twice however samples fall). Pure and clock-free.
 */

/** A plan live: connections open now, and bytes per second (both directions) lately. */
export interface LivePlan {
  openConnections: number;
  bytesPerSecond: number;
}

interface Sample {
  atMs: number;
  carried: ReadonlyMap<string, number>;
}

export class LiveRates {
  private readonly samples: Sample[] = [];
  private open: ReadonlyMap<string, number> = new Map();

  /** @param windowMs how far back throughput looks (5 s: steady, yet it falls to 0 soon after a download). */
  constructor(private readonly windowMs = 5000) {}

  /** One reading: connections open per plan, and bytes carried per plan since the gateway started. */
  sample(atMs: number, open: ReadonlyMap<string, number>, carried: ReadonlyMap<string, number>): void {
    this.open = new Map(open);
    this.samples.push({ atMs, carried: new Map(carried) });
    // Keep one sample at or before the window's start, so the rate spans the whole window.
    while (this.samples.length > 2 && (this.samples[1]?.atMs ?? 0) <= atMs - this.windowMs) {
      this.samples.shift();
    }
  }

  /** Every plan with a connection open or bytes moving in the window. */
  snapshot(): Map<string, LivePlan> {
    const plans = new Map<string, LivePlan>();
    const first = this.samples[0];
    const last = this.samples.at(-1);
    const seconds = first && last ? (last.atMs - first.atMs) / 1000 : 0;
    if (first && last && seconds > 0) {
      for (const [planId, total] of last.carried) {
        const moved = total - (first.carried.get(planId) ?? 0);
        if (moved > 0) {
          plans.set(planId, { openConnections: 0, bytesPerSecond: Math.round(moved / seconds) });
        }
      }
    }
    for (const [planId, count] of this.open) {
      if (count > 0) {
        const known = plans.get(planId);
        plans.set(planId, { openConnections: count, bytesPerSecond: known?.bytesPerSecond ?? 0 });
      }
    }
    return plans;
  }
}

/** Adds one gateway's live plans into a fleet-wide sum. */
export function addLivePlans(into: Map<string, LivePlan>, from: Iterable<[string, LivePlan]>): void {
  for (const [planId, plan] of from) {
    const known = into.get(planId);
    into.set(planId, {
      openConnections: (known?.openConnections ?? 0) + plan.openConnections,
      bytesPerSecond: (known?.bytesPerSecond ?? 0) + plan.bytesPerSecond,
    });
  }
}
