/**
 * How a customer points a tool at the gateway: the cURL command and the six list formats of
 * providers.md section 4. Pure functions, so what the screen shows, copies and downloads, and what the
 * public API answers, is the same text.
 */

export type ProxyProtocol = 'http' | 'socks5';
export type SessionType = 'rotating' | 'sticky';

export interface GatewayEndpoints {
  /** The DNS name or the IP address customers connect to. */
  host: string;
  httpPort: number;
  socksPort: number;
  stickyPorts: { first: number; last: number };
}

export interface ProxyCredentials {
  login: string;
  password: string;
}

export const PROXY_LIST_FORMATS = [
  { id: 'host:port:user:pass', label: 'host:port:user:pass' },
  { id: 'user:pass@host:port', label: 'user:pass@host:port' },
  { id: 'user:pass:host:port', label: 'user:pass:host:port' },
  { id: 'host:port@user:pass', label: 'host:port@user:pass' },
  { id: 'scheme://user:pass@host:port', label: 'protocol://user:pass@host:port' },
  { id: 'host:port', label: 'host:port (IP allowlist)' },
] as const;
export type ProxyListFormat = (typeof PROXY_LIST_FORMATS)[number]['id'];

/** The most lines a rotating list offers; a sticky list is bounded by the sticky port range. */
export const MAX_ROTATING_LIST = 1000;

export function stickyPortCount(endpoints: GatewayEndpoints): number {
  return endpoints.stickyPorts.last - endpoints.stickyPorts.first + 1;
}

export function maxListQuantity(endpoints: GatewayEndpoints, session: SessionType): number {
  return session === 'sticky' ? stickyPortCount(endpoints) : MAX_ROTATING_LIST;
}

/** The port a rotating connection uses for the protocol (sticky ports speak both). */
export function rotatingPort(endpoints: GatewayEndpoints, protocol: ProxyProtocol): number {
  return protocol === 'http' ? endpoints.httpPort : endpoints.socksPort;
}

/** An IPv6 literal goes in brackets wherever a port follows it. */
function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A cURL command that fetches `targetUrl` through the gateway. socks5h makes the gateway resolve the
 * target's name, as the HTTP proxy does, so geo-targeted requests see the exit's DNS, not the client's.
 */
export function buildCurlCommand(options: {
  endpoints: GatewayEndpoints;
  credentials: ProxyCredentials;
  protocol: ProxyProtocol;
  session: SessionType;
  targetUrl: string;
}): string {
  const { endpoints, credentials, protocol, session } = options;
  const port = session === 'sticky' ? endpoints.stickyPorts.first : rotatingPort(endpoints, protocol);
  const scheme = protocol === 'http' ? 'http' : 'socks5h';
  return [
    'curl',
    '--proxy',
    `${scheme}://${hostForUrl(endpoints.host)}:${port}`,
    '--proxy-user',
    shellQuote(`${credentials.login}:${credentials.password}`),
    shellQuote(options.targetUrl),
  ].join(' ');
}

export function formatProxyLine(
  format: ProxyListFormat,
  line: { host: string; port: number; user: string; password: string; protocol: ProxyProtocol },
): string {
  const host =
    format === 'scheme://user:pass@host:port' || format === 'user:pass@host:port'
      ? hostForUrl(line.host)
      : line.host;
  const { port, user, password } = line;
  switch (format) {
    case 'host:port:user:pass':
      return `${host}:${port}:${user}:${password}`;
    case 'user:pass@host:port':
      return `${user}:${password}@${host}:${port}`;
    case 'user:pass:host:port':
      return `${user}:${password}:${host}:${port}`;
    case 'host:port@user:pass':
      return `${host}:${port}@${user}:${password}`;
    case 'scheme://user:pass@host:port':
      return `${line.protocol}://${user}:${password}@${host}:${port}`;
    case 'host:port':
      return `${hostForUrl(line.host)}:${port}`;
  }
}

/**
 * A proxy list of `quantity` lines. Sticky: one sticky port per line (10000, 10001, ...), so each line
 * keeps its own IP. Rotating: every line on the protocol's port, each with its own `sessid` in the
 * username so tools that spread work over lines get distinct IPs; `host:port` lines carry no username
 * (IP allowlist auth), so rotating ones repeat the one endpoint and each connection rotates.
 */
export function buildProxyList(options: {
  endpoints: GatewayEndpoints;
  credentials: ProxyCredentials;
  protocol: ProxyProtocol;
  session: SessionType;
  format: ProxyListFormat;
  quantity: number;
  /** Session ids for rotating lines; `sessionIds(n)` answers n distinct ones. */
  sessionIds: (count: number) => string[];
}): string[] {
  const { endpoints, credentials, protocol, session, format } = options;
  const quantity = Math.min(Math.max(1, Math.trunc(options.quantity)), maxListQuantity(endpoints, session));
  const base = { host: endpoints.host, password: credentials.password, protocol };
  if (session === 'sticky') {
    return Array.from({ length: quantity }, (_, i) =>
      formatProxyLine(format, { ...base, port: endpoints.stickyPorts.first + i, user: credentials.login }),
    );
  }
  const port = rotatingPort(endpoints, protocol);
  const ids = format === 'host:port' ? [] : options.sessionIds(quantity);
  return Array.from({ length: quantity }, (_, i) =>
    formatProxyLine(format, {
      ...base,
      port,
      user: format === 'host:port' ? credentials.login : `${credentials.login}__sessid.${ids[i]}`,
    }),
  );
}

/** The Web Crypto of browsers and of Node (a global in both; the contracts are typed for neither). */
function webCrypto(): { getRandomValues(array: Uint8Array): Uint8Array } {
  return (globalThis as unknown as { crypto: { getRandomValues(array: Uint8Array): Uint8Array } }).crypto;
}

/** Random session ids from [a-z0-9], 10 characters: the username grammar's sessid alphabet. */
export function randomSessionIds(count: number): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const ids = new Set<string>();
  while (ids.size < count) {
    const bytes = webCrypto().getRandomValues(new Uint8Array(10));
    ids.add(Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join(''));
  }
  return [...ids];
}

export function proxyListFileName(pool: string, session: SessionType, protocol: ProxyProtocol): string {
  return `bytegate-${pool}-${session}-${protocol}.txt`;
}
