import type { Socket } from 'node:net';
import { type Admitted, admit, readBasicCredentials } from '../admission.ts';
import { GatewayError } from '../errors.ts';
import { ClientConnection } from '../http1/client-connection.ts';
import { headerValue, type RequestHead } from '../http1/messages.ts';
import type { TargetPool } from '../http1/target-pool.ts';
import type { TargetPolicy } from '../policy/target-policy.ts';
import { CONNECT_ESTABLISHED, errorReply } from '../replies.ts';
import type { StickySessions } from '../routing/sticky-sessions.ts';
import type { GatewayStore } from '../store.ts';
import { connectThroughExit, type ExitChoice, resolveTarget, type Target } from '../tunnel/connect-exit.ts';
import { endWith } from '../tunnel/end-with.ts';
import type { PendingConnections } from '../tunnel/pending-connections.ts';
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
  /** How long an exit may take to reach a target; the OS alone would wait about two minutes. */
  exitConnectTimeoutMs: number;
  policy: TargetPolicy;
  /** The sticky port a client connected to, if it did: the port is then its session. */
  stickyPortOf: (socket: Socket) => number | undefined;
  /** Kept-alive connections to targets for forward requests. */
  targetPool: TargetPool;
  /** Connections not yet authenticated: capped per client and in total, under a deadline. */
  pending: PendingConnections;
}

/** The HTTP proxy port's handler for one accepted (or sniffed sticky-port) connection. */
export function handleHttpConnection(deps: HttpProxyDeps, socket: Socket): void {
  new ClientConnection(socket, {
    onConnect: (head, rest) => void handleConnect(deps, socket, head, rest),
    onForward: (client, head, rest) => void handleForward(deps, client, head, rest),
    onMalformed: (message) => refuse(deps, socket, new GatewayError('BAD_REQUEST', message), null),
    onTooLarge: (message) => refuse(deps, socket, new GatewayError('HEAD_TOO_LARGE', message), null),
  });
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
  endWith(client, reply);
}

export function exitChoice(
  deps: Pick<HttpProxyDeps, 'sessions' | 'defaultSessionTtlMinutes'>,
  admitted: Admitted,
  stickyPort: number | undefined,
): ExitChoice {
  return {
    sessions: deps.sessions,
    planId: admitted.plan.planId,
    // The plan's saved rotation interval is its sticky window.
    defaultTtlMinutes: admitted.plan.saved?.rotationMinutes ?? deps.defaultSessionTtlMinutes,
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

async function handleConnect(deps: HttpProxyDeps, client: Socket, request: RequestHead, head: Buffer) {
  let admitted: Admitted | null = null;
  client.on('error', () => client.destroy());
  const stickyPort = deps.stickyPortOf(client);
  try {
    const credentials = readBasicCredentials(headerValue(request.headers, 'proxy-authorization'));
    admitted = admit(deps, credentials, client, stickyPort);
    deps.meter.attach(client, admitted.plan.planId, admitted.isDoubled);
    const target = parseAuthority(request.target);
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
      deps.exitConnectTimeoutMs,
    );
    if (client.destroyed) {
      // The client left while the exit was connecting: nothing would close this tunnel.
      upstream.destroy();
      return;
    }
    deps.meter.countRequest(admitted.plan.planId);
    const allow = deps.meter.allowFor(client);
    if (head.length > 0) {
      upstream.write(head.subarray(0, allow(head.length)));
    }
    client.write(CONNECT_ESTABLISHED);
    relay(client, upstream, allow);
  } catch (error) {
    refuse(deps, client, error, admitted);
  }
}
