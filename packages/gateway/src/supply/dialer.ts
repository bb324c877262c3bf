import type { Socket } from 'node:net';
import type { Targeting } from '@bytegate/contracts/targeting';
import type { AgentCarries } from '../agents/agent-link.ts';
import { GatewayError } from '../errors.ts';
import type { ExitIndex } from '../routing/exit-index.ts';
import { chooseExit, pickExit, type StickyChoice, sessionKey, sessionTtlMs } from '../routing/select-exit.ts';
import type { StickySessions } from '../routing/sticky-sessions.ts';
import type { SessionDirectory } from '../shared-state.ts';
import type { Exit, PlanAccess, ProxyUserAccess } from '../store.ts';
import {
  type DialOutcomes,
  type DialSettings,
  openExit,
  PORT_TRIES,
  whenConnected,
} from '../tunnel/exit-dialer.ts';
import { isLocalPortTaken } from '../tunnel/local-ports.ts';
import { UpstreamRefusal } from '../tunnel/upstream.ts';
import { SOURCE_ALARMS } from './grammar.ts';
import {
  healthCountry,
  networkBinding,
  networkExit,
  networkSourceIdOf,
  orderSources,
  readNetworkBinding,
} from './route.ts';
import type { ExitsSource, NetworkSource, Source } from './source.ts';
import type { SourceHealth } from './source-health.ts';

/** Dials a connection may make: the first, and one more within one source; a third across sources. */
const TRIES_IN_ONE_SOURCE = 2;
const TRIES_ACROSS_SOURCES = 3;

/**
 * One connection's (or one forward request's) way out through its pool's sources: the first exit (the
 * session's, when a `sessid` or a sticky port names one, else a pick from the first source in the
 * routing's order) and, when a dial fails before any byte reached the client, the next: another of our
 * exits, or the next source. A session moves with it. Our own exits are picked from the pool's index; a
 * wholesale network's exit is its endpoint with this connection's targeting and session spelled in the
 * vendor's grammar. It is its own StickyChoice and DialOutcomes, so a dial costs one object.
 */
export class ExitDialer implements StickyChoice, DialOutcomes {
  /** The exit tried last, and the source it belongs to (undefined in a store without sources). */
  exit: Exit | undefined;
  source: Source | undefined;
  /** Another exit than the first was tried. */
  hasMovedOn = false;
  readonly sessions: StickySessions;
  readonly planId: string;
  readonly defaultTtlMinutes: number;
  private readonly exits: ExitIndex;
  private readonly sources: readonly Source[];
  private readonly exitsSource: ExitsSource | undefined;
  private readonly timeoutMs: number;
  private readonly health: DialOutcomes | undefined;
  private readonly sourceHealth: SourceHealth | undefined;
  private readonly directory: SessionDirectory | undefined;
  private readonly settings: DialSettings;
  private order: Source[] | undefined;
  private position = 0;
  private tries = 0;
  /** Dials that failed, and of them those a network refused for want of an exit for the target. */
  private failures = 0;
  private noExitFailures = 0;

  constructor(
    settings: DialSettings,
    admitted: { plan: PlanAccess; proxyUser?: ProxyUserAccess | undefined; userKey?: string | undefined },
    private targeting: Targeting,
    readonly stickyPort: number | undefined,
  ) {
    const { plan, proxyUser } = admitted;
    this.settings = settings;
    this.exits = settings.store.exitIndex(plan.poolType);
    this.sources = settings.store.listSources?.(plan.poolType) ?? [];
    this.exitsSource = this.sources.find((source): source is ExitsSource => source.kind === 'exits');
    this.sessions = settings.sessions;
    // A proxy user's sessions are its own: a reseller's customers naming the same sessid never meet.
    this.planId = admitted.userKey ?? plan.planId;
    // The saved rotation interval (the proxy user's, else the plan's) is its sticky window.
    this.defaultTtlMinutes =
      (proxyUser?.saved ?? plan.saved)?.rotationMinutes ?? settings.defaultSessionTtlMinutes;
    this.timeoutMs = settings.exitConnectTimeoutMs;
    this.health = settings.exitHealth;
    this.sourceHealth = settings.sourceHealth;
    this.directory = settings.directory;
  }

  /** The first exit: the session's, or a new pick (NO_RAY when no source can serve the targeting). */
  first(): Exit {
    this.tries = 1;
    if (this.sources.length === 0) {
      // A store without sources: the pool's own exits, as they always were.
      this.exit = chooseExit(this.exits, this.targeting, this);
      return this.exit;
    }
    const key = sessionKey(this, this.targeting);
    const bound = key === undefined ? undefined : this.sessions.peek(key);
    if (key !== undefined && bound !== undefined) {
      const held = this.heldSession(key, bound);
      if (held) {
        return held;
      }
      this.targeting = this.sessions.keepCountry(key, this.targeting);
    }
    return this.next(key, undefined);
  }

  /**
   * Whether the exit's connections to a target may be kept alive for later requests: not a rotating
   * one through a network, which would keep the vendor's exit IP for as long as it was reused.
   */
  get reusesTargets(): boolean {
    return this.source?.kind !== 'network' || sessionKey(this, this.targeting) !== undefined;
  }

  /** The exit agent of the exit tried last, when it is one (its partner earns from the bytes). */
  get agentId(): string | undefined {
    return this.exit?.kind === 'agent' ? this.exit.id : undefined;
  }

  /** Whether a failed dial may be followed by another. */
  get canMoveOn(): boolean {
    const limit = this.sources.length > 1 ? TRIES_ACROSS_SOURCES : TRIES_IN_ONE_SOURCE;
    return this.tries < limit;
  }

  /** The exit after the last one failed: the next source's, or another of ours; a session moves to it. */
  moveOn(): Exit {
    this.tries += 1;
    this.hasMovedOn = true;
    const key = sessionKey(this, this.targeting);
    if (key !== undefined && this.exit) {
      // The session moves, within the country it had.
      this.targeting = this.sessions.keepCountry(key, this.targeting, this.exit.country);
    }
    const failed = this.source;
    if (this.order === undefined && failed?.kind === 'network') {
      // A session held on a network that failed: the routing's order, less that network.
      this.order = this.routingOrder().filter((source) => source.id !== failed.id);
    }
    if (this.sources.length > 0 && this.order !== undefined && this.position < this.order.length) {
      try {
        return this.next(key, this.exit?.id);
      } catch (error) {
        if (this.source?.kind !== 'exits') {
          throw error;
        }
      }
    }
    if (this.sources.length > 0 && this.source?.kind !== 'exits') {
      throw this.exhausted();
    }
    const next = pickExit(this.exits, this.targeting, this.exit?.id);
    if (key) {
      const ttlMs = sessionTtlMs(this, this.targeting);
      this.sessions.bind(key, next, ttlMs);
      this.directory?.rebind(key, next.id, ttlMs);
    }
    this.exit = next;
    return next;
  }

  /**
   * A session's exit while its source still serves it (a draining source keeps its sessions): one of
   * our exits still matching, or the network it was bound to under the same vendor session.
   */
  private heldSession(key: string, bound: string): Exit | undefined {
    const network = readNetworkBinding(bound);
    if (!network) {
      const source = this.exitsSource;
      // Our exit while it still matches (else the next source's pick, which the fleet is told of).
      const exit =
        source && source.state !== 'off' ? this.sessions.get(key, this.exits, this.targeting) : undefined;
      if (!exit) {
        return undefined;
      }
      this.source = source;
      this.exit = exit;
      return exit;
    }
    const source = this.sources.find((candidate) => candidate.id === network.sourceId);
    if (
      source?.kind !== 'network' ||
      source.state === 'off' ||
      source.adapter.cannotExpress(this.targeting)
    ) {
      return undefined;
    }
    return this.throughNetwork(source, `${key}|${network.generation}`);
  }

  /** The next source in the routing's order that has an exit for the connection. */
  private next(key: string | undefined, avoidExitId: string | undefined): Exit {
    this.order ??= this.routingOrder();
    while (this.position < this.order.length) {
      const source = this.order[this.position++] as Source;
      if (source.kind === 'exits') {
        const exit = this.exits.pick(this.targeting, avoidExitId);
        if (!exit) {
          continue; // none of ours matches: the next source may have one
        }
        if (key) {
          this.bindSession(key, exit.id, exit.country);
        }
        this.source = source;
        this.exit = exit;
        return exit;
      }
      if (!key) {
        return this.throughNetwork(source, undefined);
      }
      const binding = networkBinding(source.id);
      this.bindSession(key, binding);
      return this.throughNetwork(source, `${key}|${readNetworkBinding(binding)?.generation}`);
    }
    throw this.exhausted();
  }

  /**
   * A session's new way out (its binding was missing, unusable here, or its exit failed): bound here, and
   * for every gateway of the fleet, so a `sessid` through any of them leaves the same way.
   */
  private bindSession(key: string, binding: string, country?: string): void {
    const ttlMs = sessionTtlMs(this, this.targeting);
    this.sessions.bindId(key, binding, ttlMs, country);
    this.directory?.rebind(key, binding, ttlMs);
  }

  private throughNetwork(source: NetworkSource, sessionKeyText: string | undefined): Exit {
    const minutes = Math.round(sessionTtlMs(this, this.targeting) / 60_000);
    this.source = source;
    this.exit = networkExit(
      source,
      this.targeting,
      sessionKeyText === undefined ? undefined : { key: sessionKeyText, minutes },
    );
    return this.exit;
  }

  /** No source left: NO_RAY when nothing could serve the targeting, else the target was unreachable. */
  private exhausted(): GatewayError {
    return this.failures > 0 && this.noExitFailures < this.failures
      ? new GatewayError('NO_HOST_CONNECTION', 'The target could not be reached')
      : new GatewayError('NO_RAY', 'No IPs are available for this target filter');
  }

  /** The pool's sources in the order this connection tries them (route.ts). */
  private routingOrder(): Source[] {
    return orderSources(
      this.sources,
      this.targeting,
      this.sourceHealth ?? IDLE_HEALTH,
      this.settings.supplyPreference ?? 'weight',
    );
  }

  /** A connection from `exit` to address:port, counted in the exit's and its source's health. */
  open(
    exit: Exit,
    address: string,
    port: number,
    isForRelay: boolean,
    target?: { host: string; carries: AgentCarries },
  ): Socket | Promise<Socket> {
    return openExit(exit, address, port, {
      timeoutMs: this.timeoutMs,
      isForRelay,
      health: this,
      host: target?.host,
      carries: target?.carries,
    });
  }

  opened(exitId: string, connectMs: number): void {
    const networkId = networkSourceIdOf(exitId);
    if (networkId === undefined) {
      this.health?.opened(exitId, connectMs);
    }
    const sourceId = networkId ?? this.exitsSource?.id;
    if (sourceId !== undefined) {
      this.sourceHealth?.opened(sourceId, healthCountry(this.targeting), connectMs);
    }
  }

  failed(exitId: string, error: unknown): void {
    this.failures += 1;
    const networkId = networkSourceIdOf(exitId);
    if (networkId === undefined) {
      this.health?.failed(exitId, error);
      if (this.exitsSource) {
        this.sourceHealth?.failed(this.exitsSource.id, healthCountry(this.targeting));
      }
      return;
    }
    const source = this.sources.find((candidate) => candidate.id === networkId);
    const refusal =
      source?.kind === 'network' && error instanceof UpstreamRefusal
        ? source.adapter.classify(error.answer)
        : 'failed';
    if (refusal === 'no-exit') {
      this.noExitFailures += 1;
    }
    const alarm = SOURCE_ALARMS[refusal];
    if (alarm && error instanceof UpstreamRefusal) {
      this.sourceHealth?.alarm(networkId, `${alarm} (${error.message})`);
    }
    this.sourceHealth?.failed(networkId, healthCountry(this.targeting));
  }

  /**
   * An open connection for a tunnel (CONNECT, SOCKS5): through the first exit, else through the next
   * while tries are left; NO_HOST_CONNECTION when all fail (NO_RAY when every network said it had no
   * exit for the target).
   */
  async openTunnel(address: string, port: number, host?: string): Promise<Socket> {
    let exit = this.first();
    for (;;) {
      try {
        return await this.openConnected(exit, address, port, host);
      } catch {
        if (!this.canMoveOn) {
          throw this.failedTunnel(port);
        }
        try {
          exit = this.moveOn();
        } catch {
          throw this.failedTunnel(port);
        }
      }
    }
  }

  /** Every dial that failed was a network saying it had no exit for the target: NO_RAY, not unreachable. */
  get hadNoExit(): boolean {
    return this.noExitFailures > 0 && this.noExitFailures === this.failures;
  }

  private failedTunnel(port: number): GatewayError {
    return this.hadNoExit
      ? new GatewayError('NO_RAY', 'No IPs are available for this target filter')
      : new GatewayError('NO_HOST_CONNECTION', `Cannot connect to port ${port} of the target`);
  }

  private async openConnected(exit: Exit, address: string, port: number, host?: string): Promise<Socket> {
    for (let tries = 1; ; tries++) {
      const target = host === undefined ? undefined : { host, carries: 'tunnel' as const };
      const opened = this.open(exit, address, port, true, target);
      try {
        return await (opened instanceof Promise ? opened : whenConnected(opened));
      } catch (error) {
        if (tries >= PORT_TRIES || !isLocalPortTaken(error)) {
          throw error;
        }
      }
    }
  }
}

/** A health that knows nothing (every source scores the same): for an engine run without one. */
const IDLE_HEALTH: Pick<SourceHealth, 'score' | 'isHeldDown'> = { score: () => 1, isHeldDown: () => false };
