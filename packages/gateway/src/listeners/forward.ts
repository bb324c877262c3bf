import type { Socket } from 'node:net';
import { type Admitted, admitHttp } from '../admission.ts';
import type { ClientSession } from '../client-session.ts';
import { countConnection } from '../counters.ts';
import { type EngineContext, refuseHttp } from '../engine-context.ts';
import { GatewayError } from '../errors.ts';
import type { ClientConnection } from '../http1/client-connection.ts';
import { type ExchangeEvents, ForwardExchange } from '../http1/exchange.ts';
import { type ForwardRequest, forwardRequestFor } from '../http1/forward-request.ts';
import { headerValue, type MalformedMessage, type RequestHead, splitAbsoluteUrl } from '../http1/messages.ts';
import type { TargetConnection } from '../http1/target-pool.ts';
import { ONE_OFF } from '../http1/target-pool.ts';
import { trafficEnded } from '../plan-check.ts';
import { resolveTarget } from '../policy/resolve-target.ts';
import type { Exit } from '../store.ts';
import { ExitDialer } from '../supply/dialer.ts';
import { relay } from '../tunnel/relay.ts';

function readUrl(target: string) {
  const url = splitAbsoluteUrl(target);
  if (!url) {
    throw new GatewayError('BAD_REQUEST', 'A proxy request needs an absolute URL (http://host/path)');
  }
  if ('scheme' in url) {
    throw new GatewayError(
      'BAD_REQUEST',
      'Use CONNECT for https and wss; forward requests must be http:// or ws://',
    );
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

/**
 * An absolute-form HTTP request: admitted, checked, and sent through an exit on a kept-alive target
 * connection when one is idle (direct and upstream exits alike); metered at the client socket. A
 * bodiless request whose target fails before answering is sent once more: on a fresh connection when
 * a reused one had gone stale, else through another exit.
 */
export function handleForward(
  ctx: EngineContext,
  session: ClientSession,
  from: ClientConnection,
  head: RequestHead,
  body: Buffer,
): void {
  countConnection(ctx.counters, session, 'http');
  let admitted: Admitted | Promise<Admitted>;
  try {
    admitted = admitHttp(ctx, headerValue(head.headers, 'proxy-authorization'), session);
  } catch (error) {
    refuseHttp(ctx, session.socket, error, null);
    return;
  }
  if (admitted instanceof Promise) {
    admitted.then(
      (known) => forwardAdmitted(ctx, session, from, head, body, known),
      (error: unknown) => refuseHttp(ctx, session.socket, error, null),
    );
  } else {
    forwardAdmitted(ctx, session, from, head, body, admitted);
  }
}

function forwardAdmitted(
  ctx: EngineContext,
  session: ClientSession,
  from: ClientConnection,
  head: RequestHead,
  body: Buffer,
  admitted: Admitted,
): void {
  const client = session.socket;
  try {
    // Each request is billed to its own plan and 2x, even on a connection kept alive across plans.
    ctx.meter.attach(client, admitted.plan.planId, admitted.isDoubled, from.requestStart, admitted.userKey);
    const url = readUrl(head.target);
    const request = readRequest(head, url);
    ctx.meter.setHost(client, url.host);
    const unblocks = admitted.plan.unblocks;
    const last = session.lastTarget;
    if (last && last.host === url.host && last.port === url.port && last.unblocks === unblocks) {
      new ForwardFlow(ctx, session, from, admitted, request, last.address, url.port, url.host).start(body);
      return;
    }
    resolveTarget(ctx.policy, url, unblocks).then(
      (address) => {
        session.lastTarget = { host: url.host, port: url.port, unblocks, address };
        new ForwardFlow(ctx, session, from, admitted, request, address, url.port, url.host).start(body);
      },
      (error: unknown) => refuseHttp(ctx, client, error, admitted),
    );
  } catch (error) {
    refuseHttp(ctx, client, error, admitted);
  }
}

/** One forward request's way through exits: the first try, and the one retry it may get. */
class ForwardFlow implements ExchangeEvents {
  private readonly dialer: ExitDialer;
  private exit!: Exit;
  private exchange: ForwardExchange | null = null;
  private connection: TargetConnection | undefined;
  /** The bytes read past the head (the body's start, or a pipelined request). */
  private bytes: Buffer = Buffer.alloc(0);

  constructor(
    private readonly ctx: EngineContext,
    session: ClientSession,
    private readonly from: ClientConnection,
    private readonly admitted: Admitted,
    private readonly request: ForwardRequest,
    private readonly address: string,
    private readonly port: number,
    /** The target's name as the client wrote it (an agent exit resolves it itself). */
    private readonly host: string,
  ) {
    this.dialer = new ExitDialer(ctx, admitted, admitted.targeting, session.stickyPort);
  }

  start(body: Buffer): void {
    try {
      this.send(this.dialer.first(), body, false);
    } catch (error) {
      refuseHttp(this.ctx, this.from.socket, error, this.admitted);
    }
  }

  /** Sends the request through `exit`: on an idle kept-alive connection unless `fresh`, else a new one. */
  private send(exit: Exit, bytes: Buffer, fresh: boolean): void {
    const { ctx } = this;
    this.exit = exit;
    this.bytes = bytes;
    ctx.meter.setSource(this.from.socket, this.dialer.source?.id, this.dialer.agentId);
    const exchange = new ForwardExchange(
      this.from.socket,
      this.request,
      ctx.targetPool,
      this,
      ctx.meter.allowFor(this.from.socket),
    );
    this.exchange = exchange;
    this.from.setExchange(exchange);
    const key = this.dialer.reusesTargets ? `${exit.id}|${this.address}|${this.port}` : ONE_OFF;
    this.connection = fresh || key === ONE_OFF ? undefined : ctx.targetPool.take(key, exchange);
    if (this.connection) {
      exchange.start(this.connection, bytes);
      return;
    }
    // Read into reused memory (relay.ts): a response body streams on without an allocation per read.
    const opened = this.dialer.open(exit, this.address, this.port, true, {
      host: this.host,
      carries: 'http',
    });
    if (!(opened instanceof Promise)) {
      // A direct exit: the request waits in the connecting socket.
      this.connection = ctx.targetPool.adopt(opened, key, exchange);
      exchange.start(this.connection, bytes);
      return;
    }
    opened.then(
      (socket) => {
        if (this.from.socket.destroyed) {
          socket.destroy();
          return;
        }
        this.connection = ctx.targetPool.adopt(socket, key, exchange);
        exchange.start(this.connection, bytes);
        // A tunnel from an upstream proxy arrives paused, so no early byte is lost.
        socket.resume();
      },
      () => this.onFailed(),
    );
  }

  onAnswered(): void {
    this.ctx.meter.countRequest(
      this.admitted.plan.planId,
      undefined,
      this.admitted.userKey,
      this.from.socket,
    );
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
    const allow = this.ctx.meter.allowFor(client);
    // The exchange took the 101 and what came with it out of the allowance (waiting for it if need be).
    client.write(response);
    if (pipelined.length > 0) {
      target.write(pipelined.subarray(0, allow(pipelined.length)));
    }
    relay(client, target, allow);
  }

  onOutOfTraffic(isAnswered: boolean): void {
    const { ctx, admitted } = this;
    if (!isAnswered) {
      refuseHttp(ctx, this.from.socket, trafficEnded(ctx.meter, admitted), admitted);
      return;
    }
    ctx.log?.debug?.(
      { code: 'TRAFFIC_EXHAUSTED', planId: admitted.plan.planId },
      'gateway cut a forward response at the last byte its traffic paid for',
    );
  }

  onFailed(): void {
    const client = this.from.socket;
    if (client.destroyed) {
      return;
    }
    const isReused = this.connection?.isReused === true;
    if (this.request.framing.kind !== 'none' || (!this.dialer.canMoveOn && !isReused)) {
      const error = this.dialer.hadNoExit
        ? new GatewayError('NO_RAY', 'No IPs are available for this target filter')
        : new GatewayError('NO_HOST_CONNECTION', 'The target could not be reached');
      refuseHttp(this.ctx, client, error, this.admitted);
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
      next = this.dialer.moveOn();
    } catch (error) {
      refuseHttp(this.ctx, client, error, this.admitted);
      return;
    }
    this.send(next, bytes, true);
  }
}
