import type { Socket } from 'node:net';

export interface PlanUsage {
  /** Bytes that crossed client sockets, both directions, without the gateway's own error replies. */
  bytes: number;
  /** Extra bytes billed on top for target filters (2x: equal to the filtered traffic). */
  extraBytes: number;
  requests: number;
  errors: number;
  errorsByCode: Record<string, number>;
  /** Bytes per target host (name as the client asked for it, lower-case). */
  hostBytes: Record<string, number>;
}

interface Metered {
  planId: string;
  isDoubled: boolean;
  /** Counter values already billed, and the gateway's own reply bytes that are never billed. */
  billedRead: number;
  billedWritten: number;
  excludedWritten: number;
  /** The target the socket is carrying traffic for now (a keep-alive client may move between hosts). */
  host: string | undefined;
  /** The host as the request named it, so a repeat of the same name costs nothing. */
  givenHost: string | undefined;
}

const empty = (): PlanUsage => ({
  bytes: 0,
  extraBytes: 0,
  requests: 0,
  errors: 0,
  errorsByCode: {},
  hostBytes: {},
});

/**
 * Meters traffic from the kernel socket counters (bytesRead / bytesWritten), never per chunk: a socket is
 * sampled when it closes and by `sampleOpen()` (every second), and the deltas pile up per plan until
 * `drain()` hands them to the store's flush.
 */
export class UsageMeter {
  private pending = new Map<string, PlanUsage>();
  private readonly open = new Map<Socket, Metered>();

  private usage(planId: string): PlanUsage {
    let usage = this.pending.get(planId);
    if (!usage) {
      usage = empty();
      this.pending.set(planId, usage);
    }
    return usage;
  }

  /** Starts billing a client socket to a plan. Bytes the socket carried before are not billed. */
  attach(socket: Socket, planId: string, isDoubled: boolean): void {
    if (this.open.has(socket)) {
      return;
    }
    this.open.set(socket, {
      planId,
      isDoubled,
      billedRead: 0,
      billedWritten: 0,
      excludedWritten: 0,
      host: undefined,
      givenHost: undefined,
    });
    socket.once('close', () => {
      this.sample(socket);
      this.open.delete(socket);
    });
  }

  /**
   * Names the target a socket now carries traffic for. The first request's own bytes count for its
   * host; when a keep-alive client moves to another host, what was carried so far (the previous
   * response) stays with the previous one.
   */
  setHost(socket: Socket, host: string): void {
    const metered = this.open.get(socket);
    if (metered && metered.givenHost !== host) {
      metered.givenHost = host;
      const normalized = host.toLowerCase().replace(/^\[|\]$/g, '');
      if (metered.host !== undefined && metered.host !== normalized) {
        this.sample(socket);
      }
      metered.host = normalized;
    }
  }

  /** The gateway's own reply on a billed socket (an error page): never billed. */
  exclude(socket: Socket, bytes: number): void {
    const metered = this.open.get(socket);
    if (metered) {
      metered.excludedWritten += bytes;
    }
  }

  countRequest(planId: string, errorCode?: string): void {
    const usage = this.usage(planId);
    usage.requests += 1;
    if (errorCode) {
      usage.errors += 1;
      usage.errorsByCode[errorCode] = (usage.errorsByCode[errorCode] ?? 0) + 1;
    }
  }

  private sample(socket: Socket): void {
    const metered = this.open.get(socket);
    if (!metered) {
      return;
    }
    const read = socket.bytesRead;
    const written = Math.max(0, socket.bytesWritten - metered.excludedWritten);
    const delta = read - metered.billedRead + (written - metered.billedWritten);
    metered.billedRead = read;
    metered.billedWritten = written;
    if (delta > 0) {
      const usage = this.usage(metered.planId);
      usage.bytes += delta;
      if (metered.isDoubled) {
        usage.extraBytes += delta;
      }
      if (metered.host !== undefined) {
        usage.hostBytes[metered.host] = (usage.hostBytes[metered.host] ?? 0) + delta;
      }
    }
  }

  /** Bills what open sockets carried since their last sample, so long tunnels are billed as they go. */
  sampleOpen(): void {
    for (const socket of this.open.keys()) {
      this.sample(socket);
    }
  }

  /**
   * Closes every open connection of a plan whose traffic is used up (`leftBytes` minus what is pending).
   * Run right after `sampleOpen()`: the overdraft is what the plan's connections carried since the last
   * sample. Answers the plans that were cut.
   */
  enforceTraffic(leftBytes: (planId: string) => number | undefined): string[] {
    const exhausted = new Set<string>();
    const checked = new Set<string>();
    for (const [socket, metered] of this.open) {
      if (!checked.has(metered.planId)) {
        checked.add(metered.planId);
        const left = leftBytes(metered.planId);
        if (left !== undefined && left - this.pendingBilledBytes(metered.planId) <= 0) {
          exhausted.add(metered.planId);
        }
      }
      if (exhausted.has(metered.planId)) {
        socket.destroy();
      }
    }
    return [...exhausted];
  }

  /** Billed bytes (with the 2x extra) not yet drained for a plan, for limits between flushes. */
  pendingBilledBytes(planId: string): number {
    const usage = this.pending.get(planId);
    return usage ? usage.bytes + usage.extraBytes : 0;
  }

  /** Puts drained usage back (its flush failed), so nothing metered is lost. */
  restore(drained: Map<string, PlanUsage>): void {
    for (const [planId, usage] of drained) {
      const into = this.usage(planId);
      into.bytes += usage.bytes;
      into.extraBytes += usage.extraBytes;
      into.requests += usage.requests;
      into.errors += usage.errors;
      for (const [code, count] of Object.entries(usage.errorsByCode)) {
        into.errorsByCode[code] = (into.errorsByCode[code] ?? 0) + count;
      }
      for (const [host, bytes] of Object.entries(usage.hostBytes)) {
        into.hostBytes[host] = (into.hostBytes[host] ?? 0) + bytes;
      }
    }
  }

  /** Takes everything metered since the last drain. */
  drain(): Map<string, PlanUsage> {
    this.sampleOpen();
    const drained = this.pending;
    this.pending = new Map();
    return drained;
  }
}
