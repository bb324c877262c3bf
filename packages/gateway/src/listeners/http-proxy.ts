import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { type Admitted, admit, readBasicCredentials } from '../admission.ts';
import { GatewayError } from '../errors.ts';
import type { TargetPolicy } from '../policy/target-policy.ts';
import { CONNECT_ESTABLISHED, errorReply } from '../replies.ts';
import type { StickySessions } from '../routing/sticky-sessions.ts';
import type { GatewayStore } from '../store.ts';
import { connectThroughExit, type ExitChoice, resolveTarget, type Target } from '../tunnel/connect-exit.ts';
import type { ThreadLimits } from '../tunnel/thread-limits.ts';
import type { UsageMeter } from '../tunnel/usage-meter.ts';

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
}

// Hop-by-hop and proxy headers never go to the target.
const DROPPED_HEADERS = new Set([
  'proxy-authorization',
  'proxy-connection',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The HTTP proxy port: absolute-form requests (with keep-alive) and CONNECT tunnels. Reads top to
 * bottom: admit the client, check the target, connect through an exit, relay, meter at the socket.
 */
export function createHttpProxyServer(deps: HttpProxyDeps): Server {
  const server = createServer({ keepAlive: true });
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
function refuse(deps: HttpProxyDeps, client: Socket, error: unknown, admitted: Admitted | null): void {
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
    deps.meter.countRequest(admitted.plan.planId);
    if (head.length > 0) {
      upstream.write(head);
    }
    client.write(CONNECT_ESTABLISHED);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  } catch (error) {
    refuse(deps, client, error, admitted);
  }
}

async function handleForward(deps: HttpProxyDeps, request: IncomingMessage, response: ServerResponse) {
  const client = request.socket;
  const stickyPort = deps.stickyPortOf(client);
  let admitted: Admitted | null = null;
  try {
    admitted = admit(deps, readBasicCredentials(request.headers['proxy-authorization']), client, stickyPort);
    deps.meter.attach(client, admitted.plan.planId, admitted.isDoubled);
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      throw new GatewayError('BAD_REQUEST', 'A proxy request needs an absolute URL (http://host/path)');
    }
    if (url.protocol !== 'http:') {
      throw new GatewayError('BAD_REQUEST', 'Use CONNECT for https; forward requests must be http://');
    }
    const port = Number(url.port || 80);
    deps.meter.setHost(client, url.hostname);
    const address = await resolveTarget(deps.policy, { host: url.hostname, port }, admitted.plan.unblocks);
    const { socket: upstream } = await connectThroughExit(
      deps.store.listExits(admitted.plan.poolType),
      admitted.targeting,
      address,
      port,
      exitChoice(deps, admitted, stickyPort),
    );
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !DROPPED_HEADERS.has(name)) {
        headers[name] = value;
      }
    }
    const planId = admitted.plan.planId;
    const outgoing = httpRequest({
      createConnection: () => upstream,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers,
    });
    // A tunnel opened through an upstream proxy arrives paused (so no early byte is lost): the client
    // request has its listeners on the socket once 'socket' fires.
    outgoing.once('socket', (socket) => socket.resume());
    outgoing.on('response', (incoming) => {
      const rawHeaders: string[] = [];
      for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
        const name = incoming.rawHeaders[i] ?? '';
        if (!DROPPED_HEADERS.has(name.toLowerCase())) {
          rawHeaders.push(name, incoming.rawHeaders[i + 1] ?? '');
        }
      }
      response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, rawHeaders);
      incoming.pipe(response);
      deps.meter.countRequest(planId);
    });
    outgoing.on('error', () => {
      if (response.headersSent) {
        client.destroy();
      } else {
        refuse(
          deps,
          client,
          new GatewayError('NO_HOST_CONNECTION', 'The target closed the connection'),
          admitted,
        );
      }
    });
    request.pipe(outgoing);
  } catch (error) {
    refuse(deps, client, error, admitted);
  }
}
