import {
  Agent,
  type ClientRequest,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { type Admitted, admit, readBasicCredentials } from '../admission.ts';
import { GatewayError } from '../errors.ts';
import { chooseExit, pickExit, sessionKey, sessionTtlMs } from '../routing/select-exit.ts';
import type { Exit } from '../store.ts';
import { resolveTarget } from '../tunnel/connect-exit.ts';
import { connectViaUpstream } from '../tunnel/upstream.ts';
import { exitChoice, type HttpProxyDeps, refuse } from './http-proxy.ts';

// Hop-by-hop and proxy headers never go to the target.
export const DROPPED_HEADERS = new Set([
  'proxy-authorization',
  'proxy-connection',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** A forward request that sends no bytes after the target answers this long is abandoned. */
const RESPONSE_IDLE_TIMEOUT_MS = 120_000;

/**
 * Keep-alive connections to targets, shared by every client: a connection from one exit address to one
 * target is reused by the next request for it (the agent's key includes the local address), so a
 * keep-alive client pays no TCP handshake per request.
 */
export function createForwardAgent(): Agent {
  return new Agent({ keepAlive: true, maxFreeSockets: 1024, scheduling: 'lifo', timeout: 60_000 });
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * An absolute-form HTTP request: admitted, checked, sent through an exit (pooled for direct exits),
 * and its response streamed back; metered at the client socket. A bodiless request whose exit fails
 * before any answer is sent once more through another exit.
 */
export async function handleForward(deps: HttpProxyDeps, request: IncomingMessage, response: ServerResponse) {
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
    const exits = deps.store.listExits(admitted.plan.poolType);
    const choice = exitChoice(deps, admitted, stickyPort);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !DROPPED_HEADERS.has(name)) {
        headers[name] = value;
      }
    }
    const planId = admitted.plan.planId;
    const isRetryable = !hasBody(request);
    const onceAdmitted = admitted;

    const send = (exit: Exit, isRetry: boolean): void => {
      const options: RequestOptions = {
        host: address,
        port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
      };
      if (exit.kind === 'direct') {
        options.agent = deps.forwardAgent;
        if (exit.localAddress) {
          options.localAddress = exit.localAddress;
        }
      } else {
        // No agent: a request with its own createConnection gets a fresh tunnel from the upstream proxy.
        options.createConnection = (_options, done) => {
          connectViaUpstream(exit.upstream, address, port).then(
            (socket) => done(null, socket),
            (error: Error) => done(error, undefined as unknown as Socket),
          );
          return undefined;
        };
      }
      const outgoing: ClientRequest = httpRequest(options);
      // A tunnel opened through an upstream proxy arrives paused (so no early byte is lost).
      outgoing.once('socket', (socket) => socket.resume());
      outgoing.setTimeout(RESPONSE_IDLE_TIMEOUT_MS, () => outgoing.destroy(new Error('target timed out')));
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
          return;
        }
        if (isRetryable && !isRetry && !client.destroyed) {
          let next: Exit;
          try {
            next = pickExit(exits, onceAdmitted.targeting, exit.id);
          } catch (error) {
            refuse(deps, client, error, onceAdmitted);
            return;
          }
          const key = sessionKey(choice, onceAdmitted.targeting);
          if (key) {
            choice.sessions.bind(key, next, sessionTtlMs(choice, onceAdmitted.targeting));
          }
          send(next, true);
          return;
        }
        refuse(
          deps,
          client,
          new GatewayError('NO_HOST_CONNECTION', 'The target could not be reached'),
          onceAdmitted,
        );
      });
      // A client that leaves mid-response frees the target connection instead of leaving it half-read.
      response.once('close', () => {
        if (!response.writableFinished) {
          outgoing.destroy();
        }
      });
      if (isRetryable) {
        outgoing.end();
      } else {
        request.pipe(outgoing);
      }
    };
    send(chooseExit(exits, admitted.targeting, choice), false);
  } catch (error) {
    refuse(deps, client, error, admitted);
  }
}
