import { connect, type Socket } from 'node:net';
import { type Admitted, admitHttp } from '../admission.ts';
import { GatewayError } from '../errors.ts';
import type { ClientConnection } from '../http1/client-connection.ts';
import {
  type ExchangeEvents,
  ForwardExchange,
  type ForwardRequest,
  forwardRequestFor,
} from '../http1/exchange.ts';
import { headerValue, type MalformedMessage, type RequestHead, splitAbsoluteUrl } from '../http1/messages.ts';
import type { TargetConnection } from '../http1/target-pool.ts';
import type { Unblocks } from '../policy/target-policy.ts';
import { chooseExit, pickExit, sessionKey, sessionTtlMs } from '../routing/select-exit.ts';
import type { Exit } from '../store.ts';
import { type ExitChoice, limitConnectTime, resolveTarget } from '../tunnel/connect-exit.ts';
import { relay } from '../tunnel/relay.ts';
import { connectViaUpstream } from '../tunnel/upstream.ts';
import { exitChoice, type HttpProxyDeps, refuse } from './http-proxy.ts';

function readUrl(target: string) {
  const url = splitAbsoluteUrl(target);
  if (!url) {
    throw new GatewayError('BAD_REQUEST', 'A proxy request needs an absolute URL (http://host/path)');
  }
  if ('scheme' in url) {
    throw new GatewayError('BAD_REQUEST', 'Use CONNECT for https; forward requests must be http://');
  }
  return url;
}

function readRequest(head: RequestHead, url: { authority: string; path: string }): ForwardRequest {
  try {
    return forwardRequestFor(head, url);
  } catch (error) {
    throw new GatewayError('BAD_REQUEST', `Malformed proxy request: ${(error as MalformedMessage).message}`);
  }
}

/** The last target a client connection asked for, resolved and checked: the next request to the same
 * host, port and unblocks skips the lookup (a keep-alive client mostly talks to one host). */
interface ResolvedTarget {
  host: string;
  port: number;
  unblocks: Unblocks | undefined;
  address: string;
}
const lastTargets = new WeakMap<Socket, ResolvedTarget>();

/**
 * An absolute-form HTTP request: admitted, checked, and sent through an exit on a kept-alive target
 * connection when one is idle (direct and upstream exits alike); metered at the client socket. A
 * bodiless request whose target fails before answering is sent once more: on a fresh connection when
 * a reused one had gone stale, else through another exit.
 */
export function handleForward(
  deps: HttpProxyDeps,
  from: ClientConnection,
  head: RequestHead,
  body: Buffer,
): void {
  const client = from.socket;
  const stickyPort = deps.stickyPortOf(client);
  let admitted: Admitted | null = null;
  try {
    admitted = admitHttp(deps, headerValue(head.headers, 'proxy-authorization'), client, stickyPort);
    // Each request is billed to its own plan and 2x, even on a connection kept alive across plans.
    deps.meter.attach(client, admitted.plan.planId, admitted.isDoubled, from.requestStart);
    const url = readUrl(head.target);
    const request = readRequest(head, url);
    deps.meter.setHost(client, url.host);
    const unblocks = admitted.plan.unblocks;
    const last = lastTargets.get(client);
    if (last && last.host === url.host && last.port === url.port && last.unblocks === unblocks) {
      new ForwardFlow(deps, from, admitted, request, last.address, url.port, stickyPort).start(body);
      return;
    }
    const once = admitted;
    resolveTarget(deps.policy, url, unblocks).then(
      (address) => {
        lastTargets.set(client, { host: url.host, port: url.port, unblocks, address });
        new ForwardFlow(deps, from, once, request, address, url.port, stickyPort).start(body);
      },
      (error: unknown) => refuse(deps, client, error, once),
    );
  } catch (error) {
    refuse(deps, client, error, admitted);
  }
}

/** One forward request's way through exits: the first try, and the one retry it may get. */
class ForwardFlow implements ExchangeEvents {
  private readonly exits: readonly Exit[];
  private readonly choice: ExitChoice;
  private exit!: Exit;
  private exchange: ForwardExchange | null = null;
  private connection: TargetConnection | undefined;
  /** The bytes read past the head (the body's start, or a pipelined request). */
  private bytes: Buffer = Buffer.alloc(0);
  private isOtherExit = false;

  constructor(
    private readonly deps: HttpProxyDeps,
    private readonly from: ClientConnection,
    private readonly admitted: Admitted,
    private readonly request: ForwardRequest,
    private readonly address: string,
    private readonly port: number,
    stickyPort: number | undefined,
  ) {
    this.exits = deps.store.listExits(admitted.plan.poolType);
    this.choice = exitChoice(deps, admitted, stickyPort);
  }

  start(body: Buffer): void {
    try {
      this.send(chooseExit(this.exits, this.admitted.targeting, this.choice), body, false);
    } catch (error) {
      refuse(this.deps, this.from.socket, error, this.admitted);
    }
  }

  private send(exit: Exit, bytes: Buffer, fresh: boolean): void {
    const { deps } = this;
    this.exit = exit;
    this.bytes = bytes;
    const exchange = new ForwardExchange(
      this.from.socket,
      this.request,
      deps.targetPool,
      this,
      deps.meter.allowFor(this.from.socket),
    );
    this.exchange = exchange;
    this.from.setExchange(exchange);
    const key = `${exit.id}|${this.address}|${this.port}`;
    this.connection = fresh ? undefined : deps.targetPool.take(key, exchange);
    if (this.connection) {
      exchange.start(this.connection, bytes);
    } else if (exit.kind === 'direct') {
      const socket = connect({ host: this.address, port: this.port, localAddress: exit.localAddress });
      socket.setNoDelay(true);
      limitConnectTime(socket, deps.exitConnectTimeoutMs);
      this.connection = deps.targetPool.adopt(socket, key, exchange);
      exchange.start(this.connection, bytes);
    } else {
      connectViaUpstream(exit.upstream, this.address, this.port, deps.exitConnectTimeoutMs).then(
        (socket) => {
          if (this.from.socket.destroyed) {
            socket.destroy();
            return;
          }
          this.connection = deps.targetPool.adopt(socket, key, exchange);
          exchange.start(this.connection, bytes);
          // A tunnel from an upstream proxy arrives paused, so no early byte is lost.
          socket.resume();
        },
        () => this.onFailed(),
      );
    }
  }

  onAnswered(): void {
    this.deps.meter.countRequest(this.admitted.plan.planId);
  }

  onDone(clientKeepAlive: boolean, pipelined: Buffer): void {
    this.from.afterRequest(clientKeepAlive, pipelined);
  }

  // A WebSocket (or other upgrade) over plain http://: after the 101 both sides are a tunnel, metered
  // at the client socket like every other byte of this connection.
  onSwitched(response: Buffer, target: Socket, pipelined: Buffer): void {
    const client = this.from.socket;
    this.from.detach();
    if (client.destroyed) {
      target.destroy();
      return;
    }
    const allow = this.deps.meter.allowFor(client);
    client.write(response.subarray(0, allow(response.length)));
    if (pipelined.length > 0) {
      target.write(pipelined.subarray(0, allow(pipelined.length)));
    }
    relay(client, target, allow);
  }

  onFailed(): void {
    const client = this.from.socket;
    if (client.destroyed) {
      return;
    }
    const { targeting } = this.admitted;
    const isReused = this.connection?.isReused === true;
    if (this.request.framing.kind !== 'none' || (this.isOtherExit && !isReused)) {
      const error = new GatewayError('NO_HOST_CONNECTION', 'The target could not be reached');
      refuse(this.deps, client, error, this.admitted);
      return;
    }
    // What the client sent meanwhile (a pipelined request) goes with the retry.
    const bytes = Buffer.concat([this.bytes, this.exchange?.takePipelined() ?? Buffer.alloc(0)]);
    if (isReused) {
      // The keep-alive race: the target closed an idle connection as we reused it.
      this.send(this.exit, bytes, true);
      return;
    }
    let next: Exit;
    try {
      next = pickExit(this.exits, targeting, this.exit.id);
    } catch (error) {
      refuse(this.deps, client, error, this.admitted);
      return;
    }
    const key = sessionKey(this.choice, targeting);
    if (key) {
      this.choice.sessions.bind(key, next, sessionTtlMs(this.choice, targeting));
    }
    this.isOtherExit = true;
    this.send(next, bytes, true);
  }
}
