// The agent protocol (version 1). An agent dials out to the hub over TLS (ALPN h2) and the roles then
// turn around: on that connection the agent is the HTTP/2 server and the hub the client, so the hub
// opens a stream per tunnel with no round trip to ask for one (as Cloudflare's tunnel connector does
// behind NAT). HTTP/2 carries any number of tunnels at once, each with its own flow control, and
// answers PING frames; node:http2 speaks it, so the agent needs nothing beyond Node itself.
//
// The hub's requests, in order:
//   POST /v1/hello     the agent answers 200 with a Hello (its token, version, its own limits)
//   POST /v1/welcome   a Welcome (who it is, where it was located, the dashboard's limits); or
//   POST /v1/refused   a Refusal (the token is unknown or revoked, the agent banned), then the end
//   GET  /v1/events    the agent answers 200 and writes an AgentEvent per line while it is connected
//   POST /v1/settings  the dashboard's limits changed (an AgentSettings)
//   CONNECT host:port  a tunnel: the agent resolves the host, checks the address, connects, answers
//                      200 and relays; or answers a refusal status with `bytegate-refusal`

export const PROTOCOL_VERSION = 1;
export const ALPN = 'h2';

export const PATHS = {
  hello: '/v1/hello',
  welcome: '/v1/welcome',
  refused: '/v1/refused',
  events: '/v1/events',
  settings: '/v1/settings',
} as const;

/** Request headers of a tunnel stream. */
export const TUNNEL_HEADERS = {
  /** `tunnel` (CONNECT, SOCKS5: bytes the agent cannot read when the target speaks TLS) or `http`. */
  carries: 'bytegate-carries',
  /** How long the agent may take to connect to the target, in ms. */
  timeoutMs: 'bytegate-timeout-ms',
} as const;

/** Response headers of a refused tunnel. */
export const REFUSAL_HEADER = 'bytegate-refusal';
export const DETAIL_HEADER = 'bytegate-detail';

/** Why an agent refused a tunnel, with the HTTP status it answers. */
export const TUNNEL_REFUSALS = {
  /** The target resolved to a private, loopback, link-local or LAN address. */
  'private-address': 403,
  /** The port is one agents never open (mail, Windows file sharing). */
  'blocked-port': 403,
  /** The partner allows no plain HTTP through this agent. */
  'plain-http': 403,
  /** The partner's limit of tunnels at once is reached. */
  busy: 503,
  /** Outside the partner's hours of the day. */
  'outside-hours': 503,
  /** The partner's GB per day are used up. */
  'daily-limit': 503,
  /** The host name did not resolve. */
  dns: 502,
  /** The target refused or reset the connection. */
  'connect-failed': 502,
  /** The target did not answer within the timeout. */
  timeout: 504,
  /** The request itself was malformed. */
  'bad-request': 400,
} as const;

export type TunnelRefusal = keyof typeof TUNNEL_REFUSALS;

export function isTunnelRefusal(text: unknown): text is TunnelRefusal {
  return typeof text === 'string' && Object.hasOwn(TUNNEL_REFUSALS, text);
}

/** What a partner allows through an agent; null or absent: no limit of that kind. */
export interface AgentSettings {
  /** Tunnels open at once. */
  maxTunnels?: number | null;
  /** GB (10^9 bytes, both directions) per day, the agent's local day. */
  gbPerDay?: number | null;
  /** Hours of the day it carries tunnels, local time: `8-23`, or `22-6` across midnight. */
  hours?: string | null;
  /** Whether forwarded plain HTTP (which the agent could read) may go through it. */
  plainHttp?: boolean | null;
}

export interface Hello {
  protocol: number;
  token: string;
  /** The agent program's version. */
  version: string;
  /** The partner's own name for the machine, if given. */
  name?: string | undefined;
  /** The limits in the agent's own configuration. */
  settings: AgentSettings;
}

export interface Welcome {
  agentId: string;
  poolType: 'datacenter' | 'residential' | 'mobile';
  /** Where the hub located the address the agent came from. */
  location: {
    address: string;
    country: string;
    state?: string | null;
    city?: string | null;
    zip?: string | null;
    asn?: number | null;
  };
  /** The dashboard's limits: the stricter of these and the agent's own apply. */
  settings: AgentSettings;
  /**
   * Every hub of the fleet (this one included): the agent keeps a connection to each, so that any
   * gateway can send a tunnel through it. A fingerprint pins a self-signed hub; null: checked by CAs.
   */
  hubs?: Array<{ url: string; fingerprint: string | null }>;
}

/** `unlocated`: the hub's GeoIP database places the agent's address nowhere (agents are exits by place). */
export type RefusalReason = 'unknown-token' | 'revoked' | 'banned' | 'unlocated' | 'protocol';

export interface Refusal {
  reason: RefusalReason;
  message: string;
}

/** What the agent tells the hub on its events stream, one JSON object per line. */
export interface AgentEvent {
  /** Whether it takes new tunnels now; `reason` says why not (a TunnelRefusal of the 503 kind). */
  available: boolean;
  reason?: TunnelRefusal | undefined;
}

/** The most a hello, welcome, refusal or settings body may hold (they are a few hundred bytes). */
export const MAX_CONTROL_BODY = 16 * 1024;

/** `host:port` for a CONNECT authority, IPv6 literals in brackets. */
export function formatAuthority(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The host (brackets removed) and port of a CONNECT authority, or null when it is not one. */
export function parseAuthority(authority: string | undefined): { host: string; port: number } | null {
  if (!authority) {
    return null;
  }
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(authority);
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  return host && Number.isInteger(port) && port >= 1 && port <= 65_535 ? { host, port } : null;
}

/**
 * A certificate fingerprint as pinned: SHA-256 of the DER certificate, hex, with or without colons,
 * either case; normalised to Node's `fingerprint256` form (`AB:CD:...`). Null when it is not one.
 */
export function normalizeFingerprint(text: string): string | null {
  const hex = text
    .trim()
    .replace(/^sha256[:/]/i, '')
    .replaceAll(':', '')
    .toUpperCase();
  return /^[0-9A-F]{64}$/.test(hex) ? (hex.match(/../g) as string[]).join(':') : null;
}
