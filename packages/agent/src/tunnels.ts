import type { Http2ServerRequest, IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { connect, type Socket } from 'node:net';
import type { PartnerLimits } from './limits.ts';
import {
  DETAIL_HEADER,
  parseAuthority,
  REFUSAL_HEADER,
  TUNNEL_HEADERS,
  TUNNEL_REFUSALS,
  type TunnelRefusal,
} from './protocol.ts';
import type { TargetGuard } from './target-guard.ts';

/** The connect deadline when the hub gives none, and the bounds of one it gives. */
const DEFAULT_CONNECT_MS = 10_000;
const MIN_CONNECT_MS = 1_000;
const MAX_CONNECT_MS = 60_000;
/** How often open tunnels' bytes are added to the day's count (the GB-per-day limit's resolution). */
export const COUNT_EVERY_MS = 5_000;

/** A request line of plain HTTP/1 (what a partner who allows no plain HTTP must never carry). */
const PLAIN_HTTP_START = /^[A-Z]{3,10} [^\s]+ HTTP\/1\.[01]\r?\n/;

export interface TunnelOptions {
  guard: TargetGuard;
  limits: PartnerLimits;
  /** The local address targets are connected from (the agent's own, in a lab with several). */
  localAddress?: string | undefined;
  /** Told when the agent's availability may have changed (a tunnel opened or closed, bytes counted). */
  onChange(): void;
}

/**
 * The tunnels one agent carries: each CONNECT stream from the hub becomes a TCP connection to its
 * target, relayed both ways with backpressure (pipe stops reading a side whose writes are not taken).
 */
export class Tunnels {
  private readonly open = new Set<{ socket: Socket; counted: number }>();
  private readonly counter: NodeJS.Timeout;

  constructor(private readonly options: TunnelOptions) {
    this.counter = setInterval(() => this.countOpen(), COUNT_EVERY_MS);
    this.counter.unref();
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every tunnel (the hub went away, or the agent stops). */
  closeAll(): void {
    for (const tunnel of this.open) {
      tunnel.socket.destroy();
    }
  }

  stop(): void {
    clearInterval(this.counter);
    this.closeAll();
  }

  async handle(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): Promise<void> {
    const { guard, limits } = this.options;
    const target = parseAuthority(headers[':authority']);
    if (!target) {
      refuse(stream, 'bad-request', 'the authority is not host:port');
      return;
    }
    const carries = headers[TUNNEL_HEADERS.carries] === 'http' ? 'http' : 'tunnel';
    const limited = limits.refusal(carries);
    if (limited) {
      refuse(stream, limited, "the partner's limits");
      return;
    }
    // Counted from the start, so tunnels still resolving count against the limit of tunnels at once.
    limits.tunnels += 1;
    let isCounted = true;
    const release = () => {
      if (isCounted) {
        isCounted = false;
        limits.tunnels -= 1;
        this.options.onChange();
      }
    };
    this.options.onChange();
    const answer = await guard.check(target.host, target.port);
    if ('refusal' in answer) {
      release();
      refuse(stream, answer.refusal, answer.detail);
      return;
    }
    if (stream.destroyed) {
      release();
      return;
    }
    const timeoutMs = Math.min(
      MAX_CONNECT_MS,
      Math.max(MIN_CONNECT_MS, Number(headers[TUNNEL_HEADERS.timeoutMs]) || DEFAULT_CONNECT_MS),
    );
    const socket = connect({
      host: answer.address,
      port: target.port,
      family: answer.family,
      localAddress: this.options.localAddress,
    });
    socket.setNoDelay(true);
    const tunnel = { socket, counted: 0 };
    const deadline = setTimeout(() => socket.destroy(new Error('timeout')), timeoutMs);
    const onEarlyError = (error: Error) => {
      clearTimeout(deadline);
      release();
      const isTimeout = error.message === 'timeout';
      refuse(
        stream,
        isTimeout ? 'timeout' : 'connect-failed',
        isTimeout ? `no answer in ${timeoutMs} ms` : errorCode(error),
      );
    };
    socket.once('error', onEarlyError);
    stream.once('close', () => {
      if (socket.connecting) {
        socket.destroy();
      }
    });
    socket.once('connect', () => {
      clearTimeout(deadline);
      socket.off('error', onEarlyError);
      if (stream.destroyed) {
        socket.destroy();
        release();
        return;
      }
      this.open.add(tunnel);
      stream.respond({ ':status': 200 });
      this.relay(stream, tunnel, carries === 'tunnel' && limits.current.plainHttp === false);
      socket.once('close', () => {
        this.open.delete(tunnel);
        this.countTunnel(tunnel);
        release();
      });
    });
  }

  private relay(stream: ServerHttp2Stream, tunnel: { socket: Socket }, refusesPlainHttp: boolean): void {
    const { socket } = tunnel;
    const end = () => {
      socket.destroy();
      if (!stream.destroyed) {
        stream.close();
      }
    };
    socket.on('error', end);
    stream.on('error', end);
    socket.on('close', end);
    stream.on('close', end);
    if (refusesPlainHttp) {
      // A tunnel is opaque to the hub's word: the partner who allows no plain HTTP is kept to it here.
      stream.once('data', (first: Buffer) => {
        if (PLAIN_HTTP_START.test(first.subarray(0, 64).toString('latin1'))) {
          end();
          return;
        }
        socket.write(first);
        stream.pipe(socket);
      });
    } else {
      stream.pipe(socket);
    }
    socket.pipe(stream);
  }

  private countTunnel(tunnel: { socket: Socket; counted: number }): void {
    const total = tunnel.socket.bytesRead + tunnel.socket.bytesWritten;
    this.options.limits.count(total - tunnel.counted);
    tunnel.counted = total;
  }

  private countOpen(): void {
    for (const tunnel of this.open) {
      this.countTunnel(tunnel);
    }
    // The day's GB used up: what is open ends now (the limit is overshot by one interval at most).
    if (this.options.limits.pause() === 'daily-limit') {
      this.closeAll();
    }
    this.options.onChange();
  }
}

function errorCode(error: Error): string {
  return (error as NodeJS.ErrnoException).code ?? error.message;
}

/** Answers a tunnel request with its refusal's status and reason. */
export function refuse(
  stream: ServerHttp2Stream | Http2ServerRequest['stream'],
  refusal: TunnelRefusal,
  detail: string,
): void {
  if (stream.destroyed || stream.headersSent) {
    if (!stream.destroyed) {
      stream.close();
    }
    return;
  }
  stream.respond(
    { ':status': TUNNEL_REFUSALS[refusal], [REFUSAL_HEADER]: refusal, [DETAIL_HEADER]: detail.slice(0, 200) },
    { endStream: true },
  );
}
