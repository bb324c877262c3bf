import {
  type ClientHttp2Session,
  type ClientHttp2Stream,
  constants,
  connect as h2Connect,
  type IncomingHttpHeaders,
} from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  type AgentEvent,
  DETAIL_HEADER,
  formatAuthority,
  type Hello,
  isTunnelRefusal,
  MAX_CONTROL_BODY,
  PATHS,
  PROTOCOL_VERSION,
  REFUSAL_HEADER,
  type Refusal,
  TUNNEL_HEADERS,
  type TunnelRefusal,
  type Welcome,
} from 'bytegate-agent/protocol';
import type { Exit } from '../store.ts';
import { type AgentAdmission, type AgentDirectory, AgentRefused } from './directory.ts';

/** What an agent said when it would not open a tunnel (or could not reach the target). */
export class AgentTunnelRefusal extends Error {
  constructor(
    readonly refusal: TunnelRefusal | 'gone',
    detail: string,
  ) {
    super(`agent refused the tunnel: ${refusal}${detail ? ` (${detail})` : ''}`);
  }
}

/** What a tunnel through an agent carries: opaque bytes, or plain HTTP the gateway forwards in clear. */
export type AgentCarries = 'tunnel' | 'http';

/** How the dialer opens a tunnel through an agent (an agent exit's `link`). */
export interface AgentTunnelOpener {
  readonly agentId: string;
  open(host: string, port: number, options: { timeoutMs: number; carries: AgentCarries }): Promise<Socket>;
}

export interface LinkEvents {
  /** Welcomed: its exit may go into the index (when available). */
  ready(link: AgentLink): void;
  /** It became available or not for new tunnels. */
  availability(link: AgentLink): void;
  /** The connection ended (every tunnel with it). */
  gone(link: AgentLink): void;
  /** The fleet's hubs, for the welcome (agents connect to every one). */
  fleetHubs(): NonNullable<Welcome['hubs']>;
}

/** How long an agent has to answer the hello once its TLS handshake is done. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** How often the hub pings an agent, and how long the answer may take before the agent counts as gone. */
export const AGENT_PING = { everyMs: 15_000, timeoutMs: 10_000 };

/**
 * One connected agent, seen from the hub: on its TLS connection the hub is the HTTP/2 client
 * (bytegate-agent/protocol). It says hello, has the directory admit the token, welcomes or refuses,
 * reads the agent's availability, and opens a CONNECT stream per tunnel. A stream is a Duplex that the
 * relay carries like a socket; the session's end ends every one of them.
 */
export class AgentLink implements AgentTunnelOpener {
  agentId = '';
  admission: AgentAdmission | null = null;
  exit: Exit | null = null;
  /** Takes new tunnels now (its partner's hours and limits allow). */
  isAvailable = false;
  /** Why not, when it is not. */
  unavailableReason: string | undefined;
  /** Tunnels open through it now. */
  tunnels = 0;
  readonly address: string;
  private session: ClientHttp2Session | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private isGone = false;
  private hello: Hello | null = null;
  /** Told of the events stream's first line (the handshake waits for it). */
  private firstEvent: (() => void) | null = null;

  constructor(
    private readonly socket: TLSSocket,
    private readonly directory: AgentDirectory,
    private readonly events: LinkEvents,
  ) {
    this.address = plainAddress(socket.remoteAddress ?? '');
  }

  get name(): string | undefined {
    return this.hello?.name;
  }

  /** Speaks to the agent until it is welcomed or refused; the link ends itself on any failure. */
  async start(): Promise<void> {
    const deadline = setTimeout(() => this.end(), HANDSHAKE_TIMEOUT_MS);
    const session = h2Connect('http://agent.invalid', {
      createConnection: () => this.socket,
      settings: { initialWindowSize: 1 << 20 },
    });
    this.session = session;
    session.on('error', () => {});
    session.once('close', () => this.end());
    session.once('connect', () => session.setLocalWindowSize(16 << 20));
    try {
      const hello = (await this.request(PATHS.hello, undefined)) as Hello;
      if (hello?.protocol !== PROTOCOL_VERSION || typeof hello.token !== 'string') {
        throw new AgentRefused('protocol', `This hub speaks agent protocol ${PROTOCOL_VERSION}`);
      }
      this.hello = hello;
      let admission: AgentAdmission;
      try {
        admission = await this.directory.admit(hello.token, this.address);
      } catch (error) {
        if (error instanceof AgentRefused) {
          const refusal: Refusal = { reason: error.reason, message: error.message };
          await this.request(PATHS.refused, refusal).catch(() => {});
        }
        throw error;
      }
      if (this.isGone) {
        return;
      }
      this.admission = admission;
      this.agentId = admission.agentId;
      this.exit = agentExit(admission, this);
      const welcome: Welcome = {
        agentId: admission.agentId,
        poolType: admission.poolType,
        location: { address: this.address, ...admission.location },
        settings: admission.settings,
        hubs: this.events.fleetHubs(),
      };
      await this.request(PATHS.welcome, welcome);
      // Ready once it said whether it takes tunnels: it goes into the index at once, or not at all.
      await new Promise<void>((resolve, reject) => this.readEvents(session, resolve, reject));
      clearTimeout(deadline);
      this.pingTimer = setInterval(() => this.ping(), AGENT_PING.everyMs);
      this.pingTimer.unref();
      this.events.ready(this);
    } catch {
      clearTimeout(deadline);
      this.end();
    }
  }

  /** The dashboard's limits changed: the agent applies the stricter of them and its own. */
  sendSettings(settings: AgentAdmission['settings']): void {
    if (this.admission) {
      this.admission.settings = settings;
    }
    void this.request(PATHS.settings, settings).catch(() => {});
  }

  open(host: string, port: number, options: { timeoutMs: number; carries: AgentCarries }): Promise<Socket> {
    const session = this.session;
    if (!session || this.isGone || session.destroyed) {
      return Promise.reject(new AgentTunnelRefusal('gone', 'the agent is no longer connected'));
    }
    if (options.carries === 'http' && this.admission?.settings.plainHttp === false) {
      return Promise.reject(new AgentTunnelRefusal('plain-http', 'its partner allows no plain HTTP'));
    }
    return new Promise((resolve, reject) => {
      let stream: ClientHttp2Stream;
      try {
        stream = session.request(
          {
            ':method': 'CONNECT',
            ':authority': formatAuthority(host, port),
            [TUNNEL_HEADERS.carries]: options.carries,
            [TUNNEL_HEADERS.timeoutMs]: String(options.timeoutMs),
          },
          { endStream: false },
        );
      } catch (error) {
        reject(error);
        return;
      }
      // The agent has its own deadline; this one covers an agent that never answers at all.
      const deadline = setTimeout(() => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(new AgentTunnelRefusal('timeout', `no answer in ${options.timeoutMs} ms`));
      }, options.timeoutMs + 1_000);
      const onError = (error: Error) => {
        clearTimeout(deadline);
        reject(error);
      };
      stream.on('error', onError);
      stream.once('close', () => {
        clearTimeout(deadline);
        reject(new AgentTunnelRefusal('gone', 'the stream closed before an answer'));
      });
      stream.once('response', (headers: IncomingHttpHeaders) => {
        clearTimeout(deadline);
        // onError stays: an error between this answer and the relay taking the stream (the agent gone
        // meanwhile) must not go unheard and end the process; a settled promise ignores it.
        const status = Number(headers[':status']);
        if (status !== 200) {
          const refusal = headers[REFUSAL_HEADER];
          stream.close();
          reject(
            new AgentTunnelRefusal(
              isTunnelRefusal(refusal) ? refusal : 'connect-failed',
              String(headers[DETAIL_HEADER] ?? `status ${status}`),
            ),
          );
          return;
        }
        this.tunnels += 1;
        stream.once('close', () => {
          this.tunnels -= 1;
        });
        // Read by the relay as any exit's socket: write, end, pause, resume, destroy and their events.
        resolve(stream as unknown as Socket);
      });
    });
  }

  /** Ends the connection and every tunnel on it. */
  end(): void {
    if (this.pingTimer) {
      clearInterval(this.pingTimer);
      this.pingTimer = null;
    }
    if (this.isGone) {
      return;
    }
    this.isGone = true;
    this.isAvailable = false;
    this.session?.destroy();
    this.socket.destroy();
    this.events.gone(this);
  }

  private ping(): void {
    const session = this.session;
    if (!session || session.destroyed) {
      return;
    }
    const deadline = setTimeout(() => this.end(), AGENT_PING.timeoutMs);
    const sent = session.ping((error) => {
      clearTimeout(deadline);
      if (error) {
        this.end();
      }
    });
    if (!sent) {
      clearTimeout(deadline);
    }
  }

  /** The agent's availability, one JSON line per change, for as long as it is connected. */
  private readEvents(
    session: ClientHttp2Session,
    onFirst: () => void,
    onFailed: (error: Error) => void,
  ): void {
    const stream = session.request({ ':method': 'GET', ':path': PATHS.events });
    this.firstEvent = onFirst;
    stream.once('close', () => onFailed(new Error('the events stream closed')));
    stream.setEncoding('utf8');
    let pending = '';
    stream.on('data', (text: string) => {
      pending += text;
      if (pending.length > MAX_CONTROL_BODY) {
        this.end();
        return;
      }
      for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        this.onEvent(line);
      }
    });
    stream.on('error', () => this.end());
    stream.once('close', () => this.end());
  }

  private onEvent(line: string): void {
    let event: AgentEvent;
    try {
      event = JSON.parse(line) as AgentEvent;
    } catch {
      return;
    }
    const isAvailable = event.available === true;
    const reason = isAvailable ? undefined : String(event.reason ?? 'paused');
    if (isAvailable !== this.isAvailable || reason !== this.unavailableReason) {
      this.isAvailable = isAvailable;
      this.unavailableReason = reason;
      this.events.availability(this);
    }
    this.firstEvent?.();
    this.firstEvent = null;
  }

  /** A control request with a JSON body (or none), answered with JSON (or nothing). */
  private request(path: string, body: unknown): Promise<unknown> {
    const session = this.session;
    if (!session || session.destroyed) {
      return Promise.reject(new Error('no session'));
    }
    return new Promise((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': path,
        'content-type': 'application/json',
      });
      stream.end(body === undefined ? undefined : JSON.stringify(body));
      const chunks: Buffer[] = [];
      let length = 0;
      let status = 0;
      stream.once('response', (headers) => {
        status = Number(headers[':status']);
      });
      stream.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length > MAX_CONTROL_BODY) {
          stream.close();
          reject(new Error('control answer too large'));
          return;
        }
        chunks.push(chunk);
      });
      stream.once('end', () => {
        if (status !== 200 && status !== 204) {
          reject(new Error(`agent answered ${status} to ${path}`));
          return;
        }
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve(text === '' ? undefined : JSON.parse(text));
        } catch (error) {
          reject(error);
        }
      });
      stream.once('error', reject);
    });
  }
}

function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** An agent as an exit of its pool (one literal: see gateway-exits.ts on hidden classes). */
function agentExit(admission: AgentAdmission, link: AgentTunnelOpener): Exit {
  const { agentId, poolType, location } = admission;
  return {
    id: agentId,
    poolType,
    country: location.country,
    state: location.state?.toLowerCase() ?? undefined,
    city: location.city?.toLowerCase() ?? undefined,
    zip: location.zip ?? undefined,
    asn: location.asn ?? undefined,
    isRisky: admission.isRisky ?? false,
    kind: 'agent',
    link,
  };
}
