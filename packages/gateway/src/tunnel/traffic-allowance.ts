/**
 * Where connections draw the traffic they may carry, ahead of carrying it. A plan's remaining traffic
 * is handed out in slices ("grants"); a relay forwards bytes only out of its connection's grant, so a
 * plan cannot run past its traffic however fast it sends. Amounts are billed bytes (a target filter's
 * 2x already applied).
 *
 * This process's implementation is below; with many gateway processes the server backs the same
 * interface with Redis (apps/server/src/gateway/fleet), which is why it is this small.
 */
export interface TrafficAllowance {
  /** Grants up to `wanted` bytes of the plan's remaining traffic; 0 when nothing is left. */
  take(planId: string, wanted: number): number;
  /** Bytes no longer outstanding because the meter billed them (they are pending now). */
  release(planId: string, bytes: number): void;
  /** Bytes granted and never carried (the connection closed or moved to another plan). */
  giveBack(planId: string, bytes: number): void;
  /** Bytes granted to connections and not yet billed or given back. */
  outstanding(planId: string): number;
  /**
   * Gets the plan's traffic ready for a new connection (a shared store draws ahead, so that `take` can
   * answer at once); false when the plan has nothing left. Without it, admission asks the store's view.
   */
  prepare?(planId: string): Promise<boolean>;
  /**
   * When `take` granted less than asked: a promise that settles once more may be there (a draw under
   * way), or null when the plan's traffic is really used up (the connection then ends).
   */
  whenAvailable?(planId: string): Promise<void> | null;
}

/** The most one connection is granted at a time (it asks again when it has carried it). */
export const MAX_GRANT_BYTES = 1024 * 1024;
/** The least a grant is, so a slow trickle does not ask for every few bytes. */
const MIN_GRANT_BYTES = 16 * 1024;

/**
 * Grants from this process's view of each plan: the traffic left as the store last read it, minus what
 * the meter billed since (pending), minus what is granted and not yet billed. A grant is a sixteenth of
 * what is left (at most 1 MiB, at least 16 KiB or what is left), so the last megabytes of a plan are
 * shared out in small slices among its connections rather than held by one.
 */
export class LocalTrafficAllowance implements TrafficAllowance {
  private readonly granted = new Map<string, number>();

  constructor(
    private readonly leftBytes: (planId: string) => number | undefined,
    private readonly pendingBytes: (planId: string) => number,
  ) {}

  take(planId: string, wanted: number): number {
    const left = this.leftBytes(planId);
    if (left === undefined) {
      return 0;
    }
    const available = left - this.pendingBytes(planId) - this.outstanding(planId);
    if (available <= 0) {
      return 0;
    }
    const slice = Math.max(
      wanted,
      Math.min(MAX_GRANT_BYTES, Math.max(MIN_GRANT_BYTES, Math.floor(available / 16))),
    );
    const grant = Math.min(slice, available);
    this.granted.set(planId, this.outstanding(planId) + grant);
    return grant;
  }

  release(planId: string, bytes: number): void {
    const now = this.outstanding(planId) - bytes;
    if (now <= 0) {
      this.granted.delete(planId);
    } else {
      this.granted.set(planId, now);
    }
  }

  giveBack(planId: string, bytes: number): void {
    this.release(planId, bytes);
  }

  outstanding(planId: string): number {
    return this.granted.get(planId) ?? 0;
  }
}
