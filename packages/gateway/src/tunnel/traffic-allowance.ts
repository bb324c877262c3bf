/**
 * Where connections draw the traffic they may carry, ahead of carrying it. A plan's remaining traffic
 * is handed out in slices ("grants"); a relay forwards bytes only out of its connection's grant, so a
 * plan cannot run past its traffic however fast it sends. Amounts are billed bytes (a target filter's
 * 2x already applied).
 *
 * This process's implementation is below; with many gateway processes the same interface is backed by
 * a shared store (issue 16), which is why it is this small.
 */
export interface TrafficAllowance {
  /** Grants up to `wanted` bytes of the plan's remaining traffic; 0 when nothing is left. */
  take(planId: string, wanted: number): number;
  /** Bytes no longer outstanding: billed by the meter (now pending), or granted and never carried. */
  release(planId: string, bytes: number): void;
  /** Bytes granted to connections and not yet billed or released. */
  outstanding(planId: string): number;
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

  outstanding(planId: string): number {
    return this.granted.get(planId) ?? 0;
  }
}
