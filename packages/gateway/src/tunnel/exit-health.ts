/** One exit's real traffic since the last drain. */
export interface ExitTraffic {
  /** Connections opened through the exit (a direct connect, or a tunnel an upstream proxy opened). */
  connects: number;
  /** Connections through the exit that failed to open (refused, timed out, the upstream said no). */
  failures: number;
  /** Summed time the opened ones took to open, in milliseconds. */
  connectMsTotal: number;
  /** The latest failure's message, and when it happened (epoch ms; 0 when none). */
  lastError: string | undefined;
  lastErrorAt: number;
}

/** Long enough to name the problem; an error message has no reason to be longer. */
const MAX_ERROR_LENGTH = 200;

/**
 * Counts, per exit, the connections the gateway opened through it, those that failed, and how long
 * opening took: what the console shows as an exit's health from real traffic. It is touched once per
 * connection the gateway opens (never per byte): a Map lookup and a few additions. The server drains
 * it every second into hourly rows (and puts a drain back when the write fails).
 */
export class ExitHealth {
  private counts = new Map<string, ExitTraffic>();

  private of(exitId: string): ExitTraffic {
    let traffic = this.counts.get(exitId);
    if (!traffic) {
      traffic = { connects: 0, failures: 0, connectMsTotal: 0, lastError: undefined, lastErrorAt: 0 };
      this.counts.set(exitId, traffic);
    }
    return traffic;
  }

  opened(exitId: string, connectMs: number): void {
    const traffic = this.of(exitId);
    traffic.connects += 1;
    traffic.connectMsTotal += connectMs;
  }

  failed(exitId: string, error: unknown): void {
    const traffic = this.of(exitId);
    traffic.failures += 1;
    const message = error instanceof Error ? error.message : String(error);
    traffic.lastError = message.slice(0, MAX_ERROR_LENGTH);
    traffic.lastErrorAt = Date.now();
  }

  /** What was counted since the last drain; counting starts again from nothing. */
  drain(): Map<string, ExitTraffic> {
    const drained = this.counts;
    this.counts = new Map();
    return drained;
  }

  /** Puts a drain back (its write failed): counted again with whatever came since. */
  restore(drained: Map<string, ExitTraffic>): void {
    for (const [exitId, traffic] of drained) {
      const into = this.of(exitId);
      into.connects += traffic.connects;
      into.failures += traffic.failures;
      into.connectMsTotal += traffic.connectMsTotal;
      if (traffic.lastErrorAt > into.lastErrorAt) {
        into.lastError = traffic.lastError;
        into.lastErrorAt = traffic.lastErrorAt;
      }
    }
  }
}
