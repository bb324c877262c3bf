import type { Socket } from 'node:net';
import {
  type Admitted,
  admit,
  knownCredentialsOf,
  readBasicCredentials,
  rememberCredentials,
} from '../admission.ts';
import type { ClientSession } from '../client-session.ts';
import { countConnection } from '../counters.ts';
import { type EngineContext, refuseHttp } from '../engine-context.ts';
import { GatewayError } from '../errors.ts';
import { ClientConnection, type ClientConnectionHandlers } from '../http1/client-connection.ts';
import { headerValue, type RequestHead } from '../http1/messages.ts';
import { resolveTarget, type Target } from '../policy/resolve-target.ts';
import { CONNECT_ESTABLISHED } from '../replies.ts';
import { ExitDialer } from '../supply/dialer.ts';
import { relay } from '../tunnel/relay.ts';
import { handleForward } from './forward.ts';

/**
 * The HTTP proxy port's handler for one accepted (or sniffed sticky-port) connection: request heads are
 * read by a ClientConnection; CONNECT opens a tunnel (below), absolute-form requests go to forward.ts.
 */
export function handleHttpConnection(ctx: EngineContext, session: ClientSession): void {
  session.httpReader = new ClientConnection(
    session.socket,
    new HttpConnectionHandlers(ctx, session),
    session.hasNoDelay,
  );
}

/** What one connection's request heads lead to: methods, not closures made for each connection. */
class HttpConnectionHandlers implements ClientConnectionHandlers {
  constructor(
    private readonly ctx: EngineContext,
    private readonly session: ClientSession,
  ) {}

  onConnect(head: RequestHead, rest: Buffer): void {
    void handleConnect(this.ctx, this.session, head, rest);
  }

  onForward(client: ClientConnection, head: RequestHead, rest: Buffer): void {
    void handleForward(this.ctx, this.session, client, head, rest);
  }

  onMalformed(message: string): void {
    refuseHttp(this.ctx, this.session.socket, new GatewayError('BAD_REQUEST', message), null);
  }

  onTooLarge(message: string): void {
    refuseHttp(this.ctx, this.session.socket, new GatewayError('HEAD_TOO_LARGE', message), null);
  }
}

function parseAuthority(authority: string | undefined): Target | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/\s]+):(\d{1,5})$/.exec(authority ?? '');
  if (!match?.[1] || !match[2]) {
    return null;
  }
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1], port } : null;
}

/**
 * CONNECT: admitted, the target checked, a tunnel opened through an exit, then the sockets relayed and
 * metered at the client socket. `head` holds client bytes read past the request head.
 */
async function handleConnect(ctx: EngineContext, session: ClientSession, request: RequestHead, head: Buffer) {
  const client: Socket = session.socket;
  countConnection(ctx.counters, session, 'connect');
  let admitted: Admitted | null = null;
  // The ClientConnection that read the head destroys the socket on an error.
  try {
    const header = headerValue(request.headers, 'proxy-authorization');
    const credentials = knownCredentialsOf(header) ?? readBasicCredentials(header);
    admitted = await admit(ctx, credentials, session);
    if (credentials) {
      rememberCredentials(header, credentials);
    }
    ctx.meter.attach(client, admitted.plan.planId, admitted.isDoubled, undefined, admitted.userKey);
    const target = parseAuthority(request.target);
    if (!target) {
      throw new GatewayError('BAD_REQUEST', 'CONNECT needs host:port');
    }
    ctx.meter.setHost(client, target.host);
    const address = await resolveTarget(ctx.policy, target, admitted.plan.unblocks);
    const dialer = new ExitDialer(ctx, admitted, admitted.targeting, session.stickyPort);
    const upstream = await dialer.openTunnel(address, target.port, target.host);
    if (client.destroyed) {
      // The client left while the exit was connecting: nothing would close this tunnel.
      upstream.destroy();
      return;
    }
    ctx.meter.setSource(client, dialer.source?.id, dialer.agentId);
    ctx.meter.countRequest(admitted.plan.planId, undefined, admitted.userKey, client);
    const allow = ctx.meter.allowFor(client);
    if (head.length > 0) {
      upstream.write(head.subarray(0, allow(head.length)));
    }
    client.write(CONNECT_ESTABLISHED);
    relay(client, upstream, allow);
  } catch (error) {
    refuseHttp(ctx, client, error, admitted);
  }
}
