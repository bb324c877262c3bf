/**
 * While Redis is away, what one gateway may still grant for each plan: the reserve it had drawn from the
 * fleet, and a credit of its own of DEGRADED_CREDIT_BYTES or a sixteenth of what its view of the plan had
 * left when the outage began, whichever is more. Past it, connections wait (for Redis to answer again, or
 * for a refresh of the database's figures: whichever comes first re-checks) rather than run on the
 * gateway's own view, which does not see what the others carry until it is stored and read back (the
 * audit measured 192 MiB overdrawn, 1.9 s of the other gateway's traffic). So a plan served by G gateways
 * overdraws by at most the sum of their credits (G × 4 MiB for a plan that runs out during the outage,
 * G ≤ 16), at any speed and however long the outage lasts.
 */
export const DEGRADED_CREDIT_BYTES = 4 * 1024 * 1024;
/** A big plan's credit: this share of what it had left, so an outage does not stall it at 4 MiB. */
const DEGRADED_SHARE = 16;
/** A connection waiting on a spent credit looks again this often (the database may say it is used up). */
const RECHECK_MS = 1000;

export class DegradedBudgets {
  /** Per plan, what this gateway may still grant until Redis answers. */
  private readonly left = new Map<string, number>();
  private readonly waiters = new Set<() => void>();

  /**
   * Grants up to `wanted` (at least `least`) out of `available` (the gateway's own view) and the plan's
   * budget, set at the outage's first grant from `reserve` (drawn and not handed out) and `viewLeft`.
   */
  take(planId: string, wanted: number, least: number, available: number, reserve: number, viewLeft: number) {
    let left = this.left.get(planId);
    if (left === undefined) {
      left =
        Math.max(0, reserve) +
        Math.max(DEGRADED_CREDIT_BYTES, Math.floor(Math.max(0, viewLeft) / DEGRADED_SHARE));
    }
    const grant = Math.max(0, Math.min(available, left, Math.max(wanted, least)));
    this.left.set(planId, left - grant);
    return grant;
  }

  /** Whether the plan's budget is spent (a connection then waits rather than ends). */
  isSpent(planId: string): boolean {
    return (this.left.get(planId) ?? 1) <= 0;
  }

  /** Bytes granted during the outage and never carried: the budget has them again. */
  giveBack(planId: string, bytes: number): void {
    const left = this.left.get(planId);
    if (left !== undefined) {
      this.left.set(planId, left + bytes);
    }
  }

  /** Settles once Redis answers again, or after RECHECK_MS (the caller then looks again). */
  whenMore(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, RECHECK_MS);
      timer.unref();
      this.waiters.add(done);
    });
  }

  /** Redis answers again: the budgets go, and every waiting connection draws from the fleet. */
  end(): void {
    this.left.clear();
    for (const done of [...this.waiters]) {
      done();
    }
  }
}
