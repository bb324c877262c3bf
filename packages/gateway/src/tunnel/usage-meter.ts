import type { Socket } from 'node:net';
import { addTo, addUsage, COUNTED_RECORDS, emptyUsage, type PlanUsage, takeFrom } from './plan-usage.ts';
import type { Allow } from './relay.ts';
import { sentBytes } from './sent-bytes.ts';
import { LocalTrafficAllowance, type TrafficAllowance } from './traffic-allowance.ts';

interface Metered {
  planId: string;
  /** The proxy user it came in as (proxyUserKey), if not the plan's own login: its share and its cap. */
  userKey: string | undefined;
  isDoubled: boolean;
  /** Billed bytes granted to this connection's relays and not yet billed by a sample. */
  granted: number;
  /** Of `granted`, what was also taken from the proxy user's cap (a cap set later covers later grants). */
  capGranted: number;
  /** Of the grant, what the relays may still forward before asking for more. */
  allowance: number;
  /** Counter values already billed, and the gateway's own reply bytes that are never billed. */
  billedRead: number;
  billedWritten: number;
  excludedWritten: number;
  /** The target the socket is carrying traffic for now (a keep-alive client may move between hosts). */
  host: string | undefined;
  /** The host as the request named it, so a repeat of the same name costs nothing. */
  givenHost: string | undefined;
  /** The source of supply carrying it now (none yet, or a store without sources). */
  sourceId: string | undefined;
  /** The exit agent carrying it now, when an agent does: its partner earns from these bytes. */
  agentId: string | undefined;
  /** Bytes billed before any source carried it: the first source takes them (a CONNECT's own head). */
  unattributed: number;
  /** The socket closed: its grant went back, and a read still in flight takes no new one. */
  isClosed: boolean;
  /** What had left for the client when the socket was destroyed (what was still queued never does). */
  writtenAtCut: number | undefined;
}

/**
 * Meters traffic from the kernel socket counters (bytesRead / bytesWritten), never per chunk: a socket is
 * sampled when it closes and by `sampleOpen()` (every 250 ms), and the deltas pile up per plan until
 * `drain()` hands them to the store's flush (tunnel/usage-flush.ts).
 *
 * It also holds each connection's allowance: the relays forward bytes only out of traffic granted ahead
 * of time (`allow`), taken from the plan's remaining traffic through a TrafficAllowance, so a plan stops
 * at its limit at any speed. Billing stays the kernel's counters; the allowance only bounds sending.
 */
export class UsageMeter {
  /** Usage not yet drained, per plan id and per proxy user key (store.ts proxyUserKey). */
  private pending = new Map<string, PlanUsage>();
  private readonly open = new Map<Socket, Metered>();
  readonly allowance: TrafficAllowance;
  /**
   * Every byte billed so far at client sockets, by direction (without the 2x extra), since the engine
   * started: running sums of the samples, for metrics. Never drained or put back.
   */
  readonly relayed = { fromClientBytes: 0, toClientBytes: 0 };
  /**
   * Bytes carried per plan since the engine started (both directions, without the 2x extra): running
   * sums of the samples, never drained, from which the live view reckons each plan's throughput.
   */
  readonly carriedByPlan = new Map<string, number>();

  /**
   * @param leftBytes the traffic a plan had left when the store last read it (undefined: no such plan);
   * without it nothing limits sending (an engine run without a store).
   */
  constructor(
    leftBytes?: (planId: string) => number | undefined,
    allowance?: TrafficAllowance,
    /** Whether a proxy user's key (store.ts proxyUserKey) has a traffic cap now: its grants draw on it too. */
    private readonly isCapped: (userKey: string) => boolean = () => false,
  ) {
    this.allowance =
      allowance ??
      new LocalTrafficAllowance(leftBytes ?? (() => Number.MAX_SAFE_INTEGER), (planId) =>
        this.pendingBilledBytes(planId),
      );
  }

  private usage(planId: string): PlanUsage {
    let usage = this.pending.get(planId);
    if (!usage) {
      usage = emptyUsage();
      this.pending.set(planId, usage);
    }
    return usage;
  }

  /**
   * Bills a client socket to a plan, with or without the 2x of target filters. The first call covers
   * everything the socket carried from its start (the CONNECT head, the SOCKS5 handshake, the first
   * request). A kept-alive HTTP connection calls it for every request: when the plan or the 2x changes,
   * what was carried so far is billed to the previous one, up to `readFrom` (the bytesRead at which this
   * request began) for what the client sent, and the connection's unused grant goes back. `userKey`
   * names the proxy user it came in as: its usage is also counted under that key, and its cap bounds it.
   */
  attach(socket: Socket, planId: string, isDoubled: boolean, readFrom?: number, userKey?: string): void {
    const known = this.open.get(socket);
    if (known) {
      if (known.planId !== planId || known.isDoubled !== isDoubled || known.userKey !== userKey) {
        this.sample(socket, readFrom);
        this.giveBackGrant(known);
        known.planId = planId;
        known.userKey = userKey;
        known.isDoubled = isDoubled;
        known.allowance = 0;
        // What the previous plan's requests carried before a source took them had none: it stays so.
        known.unattributed = 0;
      }
      return;
    }
    this.open.set(socket, {
      planId,
      userKey,
      isDoubled,
      granted: 0,
      capGranted: 0,
      allowance: 0,
      billedRead: 0,
      billedWritten: 0,
      excludedWritten: 0,
      host: undefined,
      givenHost: undefined,
      sourceId: undefined,
      agentId: undefined,
      unattributed: 0,
      isClosed: false,
      writtenAtCut: undefined,
    });
    this.noteCuts(socket);
    socket.once('close', () => {
      this.sample(socket);
      const metered = this.open.get(socket);
      if (metered) {
        this.giveBackGrant(metered);
        metered.isClosed = true;
      }
      this.open.delete(socket);
    });
  }

  /**
   * Notes what had left for the client when the socket is destroyed, before the destroy drops what was
   * still queued: after it, nothing tells the two apart (the close's sample bills only what left).
   */
  private noteCuts(socket: Socket): void {
    const destroy = socket.destroy;
    const open = this.open;
    socket.destroy = function (this: Socket, error?: Error) {
      const metered = open.get(this);
      if (metered && metered.writtenAtCut === undefined && !this.destroyed) {
        metered.writtenAtCut = sentBytes(this);
      }
      return destroy.call(this, error);
    };
  }

  /** A connection's unused grant goes back to its plan (and its proxy user's cap). */
  private giveBackGrant(metered: Metered): void {
    this.allowance.giveBack(metered.planId, metered.granted);
    if (metered.userKey !== undefined && metered.capGranted > 0) {
      this.allowance.giveBack(metered.userKey, metered.capGranted);
    }
    metered.granted = 0;
    metered.capGranted = 0;
  }

  /**
   * Takes a grant from the plan and, for a proxy user with a cap, the same from the cap: the smaller of
   * the two stands and the rest of the other goes back at once.
   */
  private takeGrant(metered: Metered, wanted: number): number {
    let grant = this.allowance.take(metered.planId, wanted);
    const userKey = metered.userKey;
    if (userKey === undefined || grant === 0 || !this.isCapped(userKey)) {
      return grant;
    }
    const capGrant = this.allowance.take(userKey, grant);
    if (capGrant < grant) {
      this.allowance.giveBack(metered.planId, grant - capGrant);
      grant = capGrant;
    } else if (capGrant > grant) {
      this.allowance.giveBack(userKey, capGrant - grant);
    }
    metered.capGranted += grant;
    return grant;
  }

  /**
   * How many of `bytes` a relay of this connection may forward now (all of them, unless the plan's
   * traffic runs out: then the part that is left, and the caller stops the connection). Takes a new
   * grant when the connection's allowance is spent. A socket the meter does not know is not limited.
   */
  allow(socket: Socket, bytes: number): number {
    const metered = this.open.get(socket);
    return metered ? this.allowFrom(metered, bytes) : bytes;
  }

  private allowFrom(metered: Metered, bytes: number): number {
    if (metered.isClosed) {
      return bytes;
    }
    const factor = metered.isDoubled ? 2 : 1;
    const needed = bytes * factor;
    if (metered.allowance < needed) {
      const grant = this.takeGrant(metered, needed - metered.allowance);
      metered.granted += grant;
      metered.allowance += grant;
    }
    const spent = Math.min(needed, metered.allowance);
    const allowed = Math.floor(spent / factor);
    metered.allowance -= allowed * factor;
    return allowed;
  }

  /**
   * `allow` for one connection, for a relay to call per chunk; its `wait` answers a promise while more
   * traffic is being drawn for the plan (a fleet's allowance), so the relay holds bytes instead of ending.
   */
  allowFor(socket: Socket): Allow {
    // Resolved once, not per chunk: a connection's record lives as long as it does (attach() changes
    // its plan in place), so the relays' per-chunk call is arithmetic only.
    const metered = this.open.get(socket);
    if (!metered) {
      return (bytes) => bytes;
    }
    const allow: Allow = (bytes) => this.allowFrom(metered, bytes);
    const whenAvailable = this.allowance.whenAvailable?.bind(this.allowance);
    if (whenAvailable) {
      allow.wait = () => {
        if (metered.isClosed) {
          return null;
        }
        const forPlan = whenAvailable(metered.planId);
        const userKey = metered.userKey;
        if (forPlan === null || userKey === undefined || !this.isCapped(userKey)) {
          return forPlan;
        }
        const forCap = whenAvailable(userKey);
        return forCap === null ? null : Promise.all([forPlan, forCap]).then(() => undefined);
      };
    }
    return allow;
  }

  /** Billed bytes a plan has used beyond what the store last read: pending, and granted ahead. */
  spentBytes(planId: string): number {
    return this.pendingBilledBytes(planId) + this.allowance.outstanding(planId);
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

  /**
   * Names the source of supply (and the exit agent, when one carries it) a socket's traffic now goes out
   * through. What it carried before its first source goes with that source; when a kept-alive client
   * moves to another source or agent, what was carried so far stays with the previous one.
   */
  setSource(socket: Socket, sourceId: string | undefined, agentId?: string): void {
    const metered = this.open.get(socket);
    if (
      !metered ||
      (sourceId === undefined && agentId === undefined) ||
      (metered.sourceId === sourceId && metered.agentId === agentId)
    ) {
      return;
    }
    if (metered.sourceId !== undefined || metered.agentId !== undefined) {
      this.sample(socket);
    } else if (metered.unattributed > 0) {
      this.attribute(metered.planId, sourceId, agentId, metered.unattributed, metered.isDoubled);
      metered.unattributed = 0;
    }
    metered.sourceId = sourceId;
    metered.agentId = agentId;
  }

  private attribute(
    planId: string,
    sourceId: string | undefined,
    agentId: string | undefined,
    bytes: number,
    isDoubled: boolean,
  ): void {
    const usage = this.usage(planId);
    if (sourceId !== undefined) {
      addTo(usage.sourceBytes, sourceId, bytes);
      if (isDoubled) {
        addTo(usage.sourceExtraBytes, sourceId, bytes);
      }
    }
    if (agentId !== undefined) {
      addTo(usage.agentBytes, agentId, bytes);
    }
  }

  /** The gateway's own reply on a billed socket (an error page): never billed. */
  exclude(socket: Socket, bytes: number): void {
    const metered = this.open.get(socket);
    if (metered) {
      metered.excludedWritten += bytes;
    }
  }

  /**
   * Counts a request (and its refusal) for the plan and, when it came in as one, its proxy user; with
   * the client's socket, for the target host it names too.
   */
  countRequest(planId: string, errorCode?: string, userKey?: string, client?: Socket): void {
    const host = client ? this.open.get(client)?.host : undefined;
    for (const key of userKey === undefined ? [planId] : [planId, userKey]) {
      const usage = this.usage(key);
      usage.requests += 1;
      if (errorCode) {
        usage.errors += 1;
        addTo(usage.errorsByCode, errorCode, 1);
      }
      if (host !== undefined) {
        addTo(usage.hostRequests, host, 1);
        if (errorCode) {
          addTo(usage.hostErrors, host, 1);
        }
      }
    }
  }

  /** Bills what the socket carried since its last sample (client bytes only up to `readUntil`). */
  private sample(socket: Socket, readUntil = socket.bytesRead): void {
    const metered = this.open.get(socket);
    if (!metered) {
      return;
    }
    const read = Math.max(metered.billedRead, Math.min(readUntil, socket.bytesRead));
    const sent = metered.writtenAtCut ?? sentBytes(socket);
    const written = Math.max(metered.billedWritten, sent - metered.excludedWritten);
    const fromClient = read - metered.billedRead;
    const toClient = written - metered.billedWritten;
    const delta = fromClient + toClient;
    metered.billedRead = read;
    metered.billedWritten = written;
    if (delta > 0) {
      this.relayed.fromClientBytes += fromClient;
      this.relayed.toClientBytes += Math.max(0, toClient);
      this.carriedByPlan.set(metered.planId, (this.carriedByPlan.get(metered.planId) ?? 0) + delta);
      const usage = this.usage(metered.planId);
      usage.bytes += delta;
      if (metered.isDoubled) {
        usage.extraBytes += delta;
      }
      if (metered.host !== undefined) {
        addTo(usage.hostBytes, metered.host, delta);
      }
      if (metered.sourceId !== undefined || metered.agentId !== undefined) {
        this.attribute(metered.planId, metered.sourceId, metered.agentId, delta, metered.isDoubled);
      } else {
        metered.unattributed += delta;
      }
      if (metered.userKey !== undefined) {
        // The proxy user's share, under its own key: the same bytes, already in the plan's total.
        const share = this.usage(metered.userKey);
        share.bytes += delta;
        if (metered.isDoubled) {
          share.extraBytes += delta;
        }
        if (metered.host !== undefined) {
          addTo(share.hostBytes, metered.host, delta);
        }
      }
      // What is now billed (pending) is no longer outstanding in the grant.
      const billed = metered.isDoubled ? delta * 2 : delta;
      const settled = Math.min(metered.granted, billed);
      if (settled > 0) {
        metered.granted -= settled;
        this.allowance.release(metered.planId, settled);
      }
      const capSettled = Math.min(metered.capGranted, billed);
      if (capSettled > 0 && metered.userKey !== undefined) {
        metered.capGranted -= capSettled;
        this.allowance.release(metered.userKey, capSettled);
      }
      metered.allowance = Math.min(metered.allowance, metered.granted);
    }
  }

  /** Bills what open sockets carried since their last sample, so long tunnels are billed as they go. */
  sampleOpen(): void {
    for (const socket of this.open.keys()) {
      this.sample(socket);
    }
  }

  /**
   * Closes every open connection `shouldClose` picks (its plan is used up, deactivated, or no longer
   * lets this client in). Run right after `sampleOpen()`, so what they carried is billed first.
   */
  closeWhere(shouldClose: (planId: string, socket: Socket, userKey: string | undefined) => boolean): void {
    for (const [socket, metered] of this.open) {
      if (shouldClose(metered.planId, socket, metered.userKey)) {
        socket.destroy();
      }
    }
  }

  /** Billed bytes (with the 2x extra) not yet drained for a plan, for limits between flushes. */
  pendingBilledBytes(planId: string): number {
    const usage = this.pending.get(planId);
    return usage ? usage.bytes + usage.extraBytes : 0;
  }

  /** Puts drained usage back (its flush failed), so nothing metered is lost. */
  restore(drained: Map<string, PlanUsage>): void {
    addUsage(this.pending, drained);
  }

  /**
   * Takes back usage that was restored but turned out to be stored after all (a flush whose answer was
   * lost): the exact reverse of `restore`.
   */
  forget(applied: Map<string, PlanUsage>): void {
    for (const [planId, usage] of applied) {
      const from = this.usage(planId);
      from.bytes -= usage.bytes;
      from.extraBytes -= usage.extraBytes;
      from.requests -= usage.requests;
      from.errors -= usage.errors;
      for (const name of COUNTED_RECORDS) {
        for (const [key, count] of Object.entries(usage[name])) {
          takeFrom(from[name], key, count);
        }
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
