import { EventEmitter } from 'node:events';
import {
  createServer,
  type Http2Server,
  type IncomingHttpHeaders,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import { isIP, connect as netConnect } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { PartnerLimits, stricterSettings } from './limits.ts';
import {
  type AgentEvent,
  type AgentSettings,
  ALPN,
  type Hello,
  MAX_CONTROL_BODY,
  normalizeFingerprint,
  PATHS,
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
  /** The address the agent connects from (to the hub and to targets); the system's choice when absent. */
  localAddress?: string | undefined;
  name?: string | undefined;
  /** The partner's own limits (the dashboard may set stricter ones). */
  settings?: AgentSettings;
  /** Private ranges a lab lets tunnels reach (never on a partner's machine). */
  allowPrivate?: readonly string[];
  /** The first reconnect delay and the longest (ms). */
  backoff?: { firstMs: number; maxMs: number };
  /** How often the agent pings the hub, and how long it waits for the answer (ms). */
  ping?: { everyMs: number; timeoutMs: number };
}

/** What the agent tells whoever runs it. */
export interface AgentEvents {
  /** Connected and welcomed by the hub. */
  online: [welcome: Welcome];
  /** The connection ended; the agent connects again after `retryInMs`. */
  offline: [reason: string, retryInMs: number];
  /** The hub refused the token or the agent: it stops for good. */
  refused: [refusal: Refusal];
}

/** Once a connection stayed up this long, the next reconnect starts from the first delay again. */
const STABLE_MS = 30_000;
/** How long the hub has to welcome the agent once it dialed. */
const WELCOME_TIMEOUT_MS = 15_000;

/**
 * An exit agent: one outbound TLS connection to the hub at a time (so it works behind NAT), on which it
 * serves the hub's HTTP/2 requests (protocol.ts); it connects again with backoff when that ends.
 */
export class ExitAgent extends EventEmitter<AgentEvents> {
  private readonly h2: Http2Server;
  private readonly guard: TargetGuard;
  private readonly limits: PartnerLimits;
  private readonly tunnels: Tunnels;
  private readonly ownSettings: AgentSettings;
  private readonly pin: string | null;
  private readonly hubUrl: URL;
  private socket: TLSSocket | null = null;
  private session: ServerHttp2Session | null = null;
  private events: ServerHttp2Stream | null = null;
  private lastEvent = '';
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private welcomeTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private onlineSince = 0;
  private stopped = false;
  welcome: Welcome | null = null;

  constructor(private readonly options: AgentOptions) {
    super();
    this.hubUrl = new URL(options.hub);
    if (this.hubUrl.protocol !== 'https:' || !this.hubUrl.port) {
      throw new Error(
        `The hub must be an https:// address with a port, such as https://gw.example.com:8444 (got ${options.hub})`,
      );
    }
    this.pin = options.pin === undefined ? null : normalizeFingerprint(options.pin);
    if (options.pin !== undefined && this.pin === null) {
      throw new Error(
        "The pin must be the hub certificate's SHA-256 fingerprint: 64 hex digits, colons allowed",
      );
    }
    this.ownSettings = options.settings ?? {};
    this.limits = new PartnerLimits(this.ownSettings);
    this.guard = new TargetGuard(options.allowPrivate);
    this.tunnels = new Tunnels({
      guard: this.guard,
      limits: this.limits,
      localAddress: options.localAddress,
      onChange: () => this.sendEvent(),
    });
    this.h2 = createServer({ settings: { initialWindowSize: 1 << 20 } });
    this.h2.on('session', (session) => this.onSession(session));
    this.h2.on('stream', (stream, headers) => this.onStream(stream, headers));
  }

  /** Tunnels open now. */
  get openTunnels(): number {
    return this.tunnels.size;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Ends the connection and every tunnel; no reconnect. */
  stop(): void {
    this.stopped = true;
    this.clearTimers();
    this.tunnels.stop();
    this.session?.destroy();
    this.socket?.destroy();
  }

  private connect(): void {
    const { hostname, port } = this.hubUrl;
    const host = hostname.replace(/^\[|\]$/g, '');
    // TCP first, from the agent's own address when it has one, then TLS over it.
    const tcp = netConnect({ host, port: Number(port), localAddress: this.options.localAddress });
    const socket = tlsConnect({
      socket: tcp,
      servername: isIP(host) === 0 ? host : undefined,
      ALPNProtocols: [ALPN],
      // A pinned hub is checked by its fingerprint below, not by a CA it never had.
      rejectUnauthorized: this.pin === null,
    });
    this.socket = socket;
    let reason = 'connection closed';
    socket.once('secureConnect', () => {
      const fingerprint = socket.getPeerCertificate().fingerprint256;
      if (this.pin !== null && fingerprint !== this.pin) {
        reason = `the hub's certificate ${fingerprint} is not the pinned one`;
        socket.destroy();
        return;
      }
      if (socket.alpnProtocol !== ALPN) {
        reason = 'the hub does not speak the agent protocol (no h2)';
        socket.destroy();
        return;
      }
      socket.setKeepAlive(true, 30_000);
      this.h2.emit('connection', socket);
    });
    this.welcomeTimer = setTimeout(() => {
      reason = 'the hub did not welcome the agent';
      socket.destroy();
    }, WELCOME_TIMEOUT_MS);
    socket.on('error', (error) => {
      reason = error.message;
    });
    socket.once('close', () => this.onClosed(reason));
  }

  private onSession(session: ServerHttp2Session): void {
    this.session = session;
    session.on('error', () => {});
    this.pingTimer = setInterval(() => this.pingHub(session), this.options.ping?.everyMs ?? 20_000);
    this.pingTimer.unref();
  }

  private pingHub(session: ServerHttp2Session): void {
    const timeoutMs = this.options.ping?.timeoutMs ?? 15_000;
    const deadline = setTimeout(
      () => session.destroy(new Error('the hub stopped answering pings')),
      timeoutMs,
    );
    const sent = session.ping((error) => {
      clearTimeout(deadline);
      if (error) {
        session.destroy(error);
      }
    });
    if (!sent) {
      clearTimeout(deadline);
    }
  }

  private onClosed(reason: string): void {
    this.clearTimers();
    this.tunnels.closeAll();
    this.session = null;
    this.events = null;
    this.socket = null;
    const wasOnline = this.welcome !== null;
    this.welcome = null;
    if (this.stopped) {
      return;
    }
    if (wasOnline && Date.now() - this.onlineSince >= STABLE_MS) {
      this.failures = 0;
    }
    const { firstMs, maxMs } = this.options.backoff ?? { firstMs: 1_000, maxMs: 60_000 };
    const base = Math.min(maxMs, firstMs * 2 ** this.failures);
    // ±20 %: agents cut off together (a hub restart) do not all come back in the same instant.
    const retryInMs = Math.round(base * (0.8 + Math.random() * 0.4));
    this.failures += 1;
    this.emit('offline', reason, retryInMs);
    this.retryTimer = setTimeout(() => this.connect(), retryInMs);
  }

  private clearTimers(): void {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    if (this.pingTimer) {
      clearInterval(this.pingTimer);
      this.pingTimer = null;
    }
    if (this.welcomeTimer) {
      clearTimeout(this.welcomeTimer);
      this.welcomeTimer = null;
    }
  }

  private onStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    stream.on('error', () => {});
    const method = headers[':method'];
    if (method === 'CONNECT') {
      if (this.welcome === null) {
        stream.close();
        return;
      }
      void this.tunnels.handle(stream, headers);
      return;
    }
    const path = headers[':path'];
    if (method === 'POST' && path === PATHS.hello) {
      const hello: Hello = {
        protocol: PROTOCOL_VERSION,
        token: this.options.token,
        version: AGENT_VERSION,
        name: this.options.name,
        settings: this.ownSettings,
      };
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      stream.end(JSON.stringify(hello));
      return;
    }
    if (method === 'GET' && path === PATHS.events) {
      stream.respond({ ':status': 200, 'content-type': 'application/x-ndjson' });
      this.events = stream;
      this.lastEvent = '';
      this.sendEvent();
      return;
    }
    if (method === 'POST' && (path === PATHS.welcome || path === PATHS.refused || path === PATHS.settings)) {
      readJson(stream).then(
        (body) => {
          stream.respond({ ':status': 204 }, { endStream: true });
          this.onControl(path, body);
        },
        () => stream.close(),
      );
      return;
    }
    stream.respond({ ':status': 404 }, { endStream: true });
  }

  private onControl(path: string, body: unknown): void {
    if (path === PATHS.refused) {
      this.stopped = true;
      this.emit('refused', body as Refusal);
      this.stop();
      return;
    }
    const settings = path === PATHS.welcome ? (body as Welcome).settings : (body as AgentSettings);
    this.limits.update(stricterSettings(this.ownSettings, settings ?? {}));
    if (path === PATHS.welcome) {
      this.welcome = body as Welcome;
      this.onlineSince = Date.now();
      if (this.welcomeTimer) {
        clearTimeout(this.welcomeTimer);
        this.welcomeTimer = null;
      }
      this.emit('online', this.welcome);
    }
    this.sendEvent();
  }

  /** Tells the hub whether new tunnels are welcome, when that changed. */
  private sendEvent(): void {
    if (!this.events || this.events.destroyed) {
      return;
    }
    const reason = this.limits.refusal('tunnel');
    const event: AgentEvent = reason ? { available: false, reason } : { available: true };
    const line = JSON.stringify(event);
    if (line !== this.lastEvent) {
      this.lastEvent = line;
      this.events.write(`${line}\n`);
    }
  }
}

/** A control request's JSON body (small: a hub sending more is not a hub). */
function readJson(stream: ServerHttp2Stream): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > MAX_CONTROL_BODY) {
        reject(new Error('control body too large'));
        stream.close();
        return;
      }
      chunks.push(chunk);
    });
    stream.once('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
    stream.once('error', reject);
  });
}
