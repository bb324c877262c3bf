import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { type ConnectionOwner, HubConnection } from './hub-connection.ts';
import { PartnerLimits, stricterSettings } from './limits.ts';
import {
  type AgentEvent,
  type AgentSettings,
  type Hello,
  normalizeFingerprint,
  PROTOCOL_VERSION,
  type Refusal,
  type Welcome,
} from './protocol.ts';
import { TargetGuard } from './target-guard.ts';
import { Tunnels } from './tunnels.ts';

export const AGENT_VERSION = '0.1.0';

export interface AgentOptions {
  /** The hub: `https://host:port`. */
  hub: string;
  token: string;
  /** The hub certificate's SHA-256 fingerprint, for a self-signed hub; without it the CA chain is checked. */
  pin?: string | undefined;
  /** The address the agent connects from (to the hubs and to targets); the system's choice when absent. */
  localAddress?: string | undefined;
  name?: string | undefined;
  /** The partner's own limits (the dashboard may set stricter ones). */
  settings?: AgentSettings;
  /** Private ranges a lab lets tunnels reach (never on a partner's machine). */
  allowPrivate?: readonly string[];
  /** The first reconnect delay and the longest (ms). */
  backoff?: { firstMs: number; maxMs: number };
  /** How often the agent pings a hub, and how long it waits for the answer (ms). */
  ping?: { everyMs: number; timeoutMs: number };
}

/** What the agent tells whoever runs it. */
export interface AgentEvents {
  /** Connected to a hub and welcomed by it. */
  online: [welcome: Welcome, hub: string];
  /** A hub's connection ended; the agent dials it again after `retryInMs`. */
  offline: [reason: string, retryInMs: number, hub: string];
  /** A hub refused the token or the agent: it stops for good. */
  refused: [refusal: Refusal];
}

/**
 * An exit agent: a connection to each hub of the fleet (the one it was given, then every one a welcome
 * names), all carrying tunnels under one set of the partner's limits.
 */
export class ExitAgent extends EventEmitter<AgentEvents> implements ConnectionOwner {
  readonly localAddress: string | undefined;
  readonly backoff: { firstMs: number; maxMs: number };
  readonly ping: { everyMs: number; timeoutMs: number };
  private readonly limits: PartnerLimits;
  private readonly tunnels: Tunnels;
  private readonly ownSettings: AgentSettings;
  private readonly connections = new Map<string, HubConnection>();
  private stopped = false;

  constructor(private readonly options: AgentOptions) {
    super();
    const pin = options.pin === undefined ? null : normalizeFingerprint(options.pin);
    if (options.pin !== undefined && pin === null) {
      throw new Error(
        "The pin must be the hub certificate's SHA-256 fingerprint: 64 hex digits, colons allowed",
      );
    }
    this.localAddress = options.localAddress;
    this.backoff = options.backoff ?? { firstMs: 1_000, maxMs: 60_000 };
    this.ping = options.ping ?? { everyMs: 20_000, timeoutMs: 15_000 };
    this.ownSettings = options.settings ?? {};
    this.limits = new PartnerLimits(this.ownSettings);
    this.tunnels = new Tunnels({
      guard: new TargetGuard(options.allowPrivate),
      limits: this.limits,
      localAddress: options.localAddress,
      onChange: () => this.announce(),
    });
    const first = new HubConnection(options.hub, pin, this);
    this.connections.set(first.url.href, first);
  }

  /** Tunnels open now, over every hub. */
  get openTunnels(): number {
    return this.tunnels.size;
  }

  /** The hubs it is connected and welcomed on now. */
  get onlineHubs(): string[] {
    return [...this.connections.values()]
      .filter((each) => each.welcome !== null)
      .map((each) => each.url.href);
  }

  start(): void {
    this.stopped = false;
    for (const connection of this.connections.values()) {
      connection.start();
    }
  }

  /** Ends every connection and tunnel; no reconnect. */
  stop(): void {
    this.stopped = true;
    this.tunnels.stop();
    for (const connection of this.connections.values()) {
      connection.stop();
    }
  }

  hello(): Hello {
    return {
      protocol: PROTOCOL_VERSION,
      token: this.options.token,
      version: AGENT_VERSION,
      name: this.options.name,
      settings: this.ownSettings,
    };
  }

  availability(): AgentEvent {
    const reason = this.limits.refusal('tunnel');
    return reason ? { available: false, reason } : { available: true };
  }

  onWelcome(connection: HubConnection, welcome: Welcome): void {
    this.onSettings(welcome.settings ?? {});
    this.emit('online', welcome, connection.url.href);
    // The rest of the fleet: a connection to every hub named, pinned as the welcome says.
    for (const hub of welcome.hubs ?? []) {
      let url: URL;
      try {
        url = new URL(hub.url);
      } catch {
        continue;
      }
      if (this.stopped || this.connections.has(url.href)) {
        continue;
      }
      try {
        const added = new HubConnection(
          url.href,
          hub.fingerprint ? normalizeFingerprint(hub.fingerprint) : null,
          this,
        );
        this.connections.set(added.url.href, added);
        added.start();
      } catch {
        // A hub the fleet lists wrongly is skipped; the others carry on.
      }
    }
  }

  onSettings(settings: AgentSettings): void {
    this.limits.update(stricterSettings(this.ownSettings, settings));
    this.announce();
  }

  onRefused(_connection: HubConnection, refusal: Refusal): void {
    // A token refused by one hub is refused by all: the agent stops.
    this.stop();
    this.emit('refused', refusal);
  }

  onOffline(connection: HubConnection, reason: string, retryInMs: number): void {
    if (!this.stopped) {
      this.emit('offline', reason, retryInMs, connection.url.href);
    }
  }

  onTunnel(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    void this.tunnels.handle(stream, headers);
  }

  /** Every hub hears whether new tunnels are welcome, when that changed. */
  private announce(): void {
    for (const connection of this.connections.values()) {
      connection.sendEvent();
    }
  }
}
