import {
  createServer,
  type Http2Server,
  type IncomingHttpHeaders,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import { isIP, connect as netConnect } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import {
  type AgentEvent,
  type AgentSettings,
  ALPN,
  type Hello,
  MAX_CONTROL_BODY,
  PATHS,
  type Refusal,
  type Welcome,
} from './protocol.ts';

/** What a connection needs from its agent: the hello's contents, and where requests go. */
export interface ConnectionOwner {
  hello(): Hello;
  localAddress: string | undefined;
  backoff: { firstMs: number; maxMs: number };
  ping: { everyMs: number; timeoutMs: number };
  /** Whether new tunnels are welcome now (sent on the events stream when it changes). */
  availability(): AgentEvent;
  onWelcome(connection: HubConnection, welcome: Welcome): void;
  onSettings(settings: AgentSettings): void;
  onRefused(connection: HubConnection, refusal: Refusal): void;
  onOffline(connection: HubConnection, reason: string, retryInMs: number): void;
  onTunnel(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void;
}

/** Once a connection stayed up this long, the next reconnect starts from the first delay again. */
const STABLE_MS = 30_000;
/** How long the hub has to welcome the agent once it dialed. */
const WELCOME_TIMEOUT_MS = 15_000;

/**
 * One hub's connection: dialed out over TLS (pinned, or checked against the CAs), on which the agent
 * serves the hub's HTTP/2 requests (protocol.ts); dialed again with backoff when it ends.
 */
export class HubConnection {
  readonly url: URL;
  welcome: Welcome | null = null;
  private readonly h2: Http2Server;
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

  constructor(
    hub: string,
    private readonly pin: string | null,
    private readonly owner: ConnectionOwner,
  ) {
    this.url = new URL(hub);
    if (this.url.protocol !== 'https:' || !this.url.port) {
      throw new Error(
        `The hub must be an https:// address with a port, such as https://gw.example.com:8444 (got ${hub})`,
      );
    }
    this.h2 = createServer({ settings: { initialWindowSize: 1 << 20 } });
    this.h2.on('session', (session) => this.onSession(session));
    this.h2.on('stream', (stream, headers) => this.onStream(stream, headers));
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    this.session?.destroy();
    this.socket?.destroy();
  }

  /** Tells the hub whether new tunnels are welcome, when that changed. */
  sendEvent(): void {
    if (!this.events || this.events.destroyed) {
      return;
    }
    const line = JSON.stringify(this.owner.availability());
    if (line !== this.lastEvent) {
      this.lastEvent = line;
      this.events.write(`${line}\n`);
    }
  }

  private connect(): void {
    const { hostname, port } = this.url;
    const host = hostname.replace(/^\[|\]$/g, '');
    // TCP first, from the agent's own address when it has one, then TLS over it.
    const tcp = netConnect({ host, port: Number(port), localAddress: this.owner.localAddress });
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
    tcp.on('error', (error) => {
      reason = error.message;
    });
    socket.on('error', (error) => {
      reason = error.message;
    });
    socket.once('close', () => this.onClosed(reason));
  }

  private onSession(session: ServerHttp2Session): void {
    this.session = session;
    session.on('error', () => {});
    this.pingTimer = setInterval(() => this.pingHub(session), this.owner.ping.everyMs);
    this.pingTimer.unref();
  }

  private pingHub(session: ServerHttp2Session): void {
    const deadline = setTimeout(
      () => session.destroy(new Error('the hub stopped answering pings')),
      this.owner.ping.timeoutMs,
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
    const { firstMs, maxMs } = this.owner.backoff;
    const base = Math.min(maxMs, firstMs * 2 ** this.failures);
    // ±20 %: agents cut off together (a hub restart) do not all come back in the same instant.
    const retryInMs = Math.round(base * (0.8 + Math.random() * 0.4));
    this.failures += 1;
    this.owner.onOffline(this, reason, retryInMs);
    this.retryTimer = setTimeout(() => this.connect(), retryInMs);
  }

  private clearTimers(): void {
    for (const timer of [this.retryTimer, this.welcomeTimer]) {
      if (timer) {
        clearTimeout(timer);
      }
    }
    if (this.pingTimer) {
      clearInterval(this.pingTimer);
    }
    this.retryTimer = null;
    this.welcomeTimer = null;
    this.pingTimer = null;
  }

  private onStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    stream.on('error', () => {});
    const method = headers[':method'];
    if (method === 'CONNECT') {
      if (this.welcome === null) {
        stream.close();
        return;
      }
      this.owner.onTunnel(stream, headers);
      return;
    }
    const path = headers[':path'];
    if (method === 'POST' && path === PATHS.hello) {
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      stream.end(JSON.stringify(this.owner.hello()));
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
      this.stop();
      this.owner.onRefused(this, body as Refusal);
      return;
    }
    if (path === PATHS.settings) {
      this.owner.onSettings(body as AgentSettings);
      return;
    }
    if (this.welcomeTimer) {
      clearTimeout(this.welcomeTimer);
      this.welcomeTimer = null;
    }
    this.welcome = body as Welcome;
    this.onlineSince = Date.now();
    this.owner.onWelcome(this, this.welcome);
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
