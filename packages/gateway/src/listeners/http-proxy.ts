import { type Agent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type Admitted, admit, readBasicCredentials } from '../admission.ts';
import { GatewayError } from '../errors.ts';
import type { TargetPolicy } from '../policy/target-policy.ts';
import { CONNECT_ESTABLISHED, errorReply } from '../replies.ts';
import type { StickySessions } from '../routing/sticky-sessions.ts';
import type { GatewayStore } from '../store.ts';
import { connectThroughExit, type ExitChoice, resolveTarget, type Target } from '../tunnel/connect-exit.ts';
import { relay } from '../tunnel/relay.ts';
import type { ThreadLimits } from '../tunnel/thread-limits.ts';
import type { UsageMeter } from '../tunnel/usage-meter.ts';
import { handleForward } from './forward.ts';

export interface HttpProxyDeps {
  store: GatewayStore;
  sessions: StickySessions;
  /** The sticky window when the username gives no sessttl (the plan's rotation interval arrives with targeting). */
  defaultSessionTtlMinutes: number;
  threads: ThreadLimits;
  meter: UsageMeter;
  policy: TargetPolicy;
  /** The sticky port a client connected to, if it did: the port is then its session. */
  stickyPortOf: (socket: Socket) => number | undefined;
  /** Keep-alive connections to targets for forward requests through direct exits. */
  forwardAgent: Agent;
}

/**
 * The HTTP proxy port: absolute-form requests (with keep-alive) and CONNECT tunnels. Reads top to
 * bottom: admit the client, check the target, connect through an exit, relay, meter at the socket.
 */
export function createHttpProxyServer(deps: HttpProxyDeps): Server {
  // A client that never finishes its request head is dropped after ~10 s, as on the SOCKS5 port
  // (Node's default is 60 s, checked every 30 s).
  const server = createServer({
    keepAlive: true,
    headersTimeout: 10_000,
    connectionsCheckingInterval: 1_000,
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    void handleConnect(deps, request, client, head);
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void handleForward(deps, request, response);
  });
  server.on('clientError', (_error, socket: Socket) => {
    if (socket.writable) {
      socket.end(errorReply('BAD_REQUEST', 'Malformed proxy request'));
    }
  });
  return server;
}

/** Writes a refusal straight to the client socket (exact bytes, left out of the bill) and closes it. */
export function refuse(deps: HttpProxyDeps, client: Socket, error: unknown, admitted: Admitted | null): void {
  const gatewayError =
    error instanceof GatewayError
      ? error
      : new GatewayError('NO_HOST_CONNECTION', 'The target could not be reached');
  const reply = errorReply(gatewayError.code, gatewayError.message);
  if (admitted) {
    deps.meter.exclude(client, reply.length);
    deps.meter.countRequest(admitted.plan.planId, gatewayError.code);
  }
  if (client.writable) {
    client.end(reply);
  } else {
    client.destroy();
  }
}

export function exitChoice(
  deps: Pick<HttpProxyDeps, 'sessions' | 'defaultSessionTtlMinutes'>,
  admitted: Admitted,
  stickyPort: number | undefined,
): ExitChoice {
  return {
    sessions: deps.sessions,
    planId: admitted.plan.planId,
    defaultTtlMinutes: deps.defaultSessionTtlMinutes,
    stickyPort,
  };
}

function parseAuthority(authority: string | undefined): Target | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/\s]+):(\d{1,5})$/.exec(authority ?? '');
  if (!match?.[1] || !match[2]) {
    return null;
  }
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1], port } : null;
}

async function handleConnect(deps: HttpProxyDeps, request: IncomingMessage, client: Socket, head: Buffer) {
  let admitted: Admitted | null = null;
  client.on('error', () => client.destroy());
  const stickyPort = deps.stickyPortOf(client);
  try {
    admitted = admit(deps, readBasicCredentials(request.headers['proxy-authorization']), client, stickyPort);
    deps.meter.attach(client, admitted.plan.planId, admitted.isDoubled);
    const target = parseAuthority(request.url);
    if (!target) {
      throw new GatewayError('BAD_REQUEST', 'CONNECT needs host:port');
    }
    deps.meter.setHost(client, target.host);
    const address = await resolveTarget(deps.policy, target, admitted.plan.unblocks);
    const { socket: upstream } = await connectThroughExit(
      deps.store.listExits(admitted.plan.poolType),
      admitted.targeting,
      address,
      target.port,
      exitChoice(deps, admitted, stickyPort),
    );
    if (client.destroyed) {
      // The client left while the exit was connecting: nothing would close this tunnel.
      upstream.destroy();
      return;
    }
    deps.meter.countRequest(admitted.plan.planId);
    if (head.length > 0) {
      upstream.write(head);
    }
    client.write(CONNECT_ESTABLISHED);
    relay(client, upstream);
  } catch (error) {
    refuse(deps, client, error, admitted);
  }
}
