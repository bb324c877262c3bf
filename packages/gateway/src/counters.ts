import type { Socket } from 'node:net';
import { type GatewayErrorCode, gatewayErrors } from './errors.ts';

/** How a client connection speaks, settled by its first request: forward HTTP, a CONNECT tunnel, SOCKS5. */
export type ClientProtocol = 'http' | 'connect' | 'socks5';

export const CLIENT_PROTOCOLS: readonly ClientProtocol[] = ['http', 'connect', 'socks5'];

/**
 * Plain numbers the engine bumps on events that happen once per connection or refusal anyway (never per
 * chunk), for an exporter (the server's Prometheus metrics) to read when it is scraped. No plan, login
 * or address is kept here: only bounded keys (protocols, error codes).
 */
export interface GatewayCounters {
  /** Client connections open now, by the protocol of their first request. */
  connectionsOpen: Record<ClientProtocol, number>;
  /** Client connections that made a first request, by its protocol, since the engine started. */
  connectionsTotal: Record<ClientProtocol, number>;
  /** Refusals sent, by code (an admitted client's and an anonymous one's alike). */
  refusals: Record<GatewayErrorCode, number>;
}

export function createGatewayCounters(): GatewayCounters {
  const perProtocol = () => ({ http: 0, connect: 0, socks5: 0 });
  const refusals = {} as Record<GatewayErrorCode, number>;
  for (const code of Object.keys(gatewayErrors) as GatewayErrorCode[]) {
    refusals[code] = 0;
  }
  return { connectionsOpen: perProtocol(), connectionsTotal: perProtocol(), refusals };
}

/**
 * Counts a connection under the protocol of its first request (later requests on it change nothing).
 * The engine's close handler takes it out of connectionsOpen again.
 */
export function countConnection(
  counters: GatewayCounters,
  session: { protocol: ClientProtocol | null; readonly socket: Socket },
  protocol: ClientProtocol,
): void {
  // A socket already destroyed may have emitted 'close': counting it would leave it open forever.
  if (session.protocol !== null || session.socket.destroyed) {
    return;
  }
  session.protocol = protocol;
  counters.connectionsTotal[protocol] += 1;
  counters.connectionsOpen[protocol] += 1;
}

/** The close side of countConnection. */
export function countClosed(counters: GatewayCounters, session: { protocol: ClientProtocol | null }): void {
  if (session.protocol !== null) {
    counters.connectionsOpen[session.protocol] -= 1;
  }
}

/** What an exporter reads from a running engine: the counters, bytes relayed and the pre-auth backlog. */
export interface GatewayStats extends GatewayCounters {
  /** Bytes billed at client sockets, by direction, without the 2x extra (UsageMeter.relayed). */
  relayed: { readonly fromClientBytes: number; readonly toClientBytes: number };
  /** Connections accepted and not yet authenticated. */
  authenticating: number;
}
