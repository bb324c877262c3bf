import { type Socket, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { SocksClient } from 'socks';

const MAX_RESPONSE_HEAD = 16 * 1024;

export interface UpstreamProxy {
  protocol: 'http' | 'socks5';
  host: string;
  port: number;
  username?: string | undefined;
  password?: string | undefined;
  /** An HTTPS proxy: CONNECT spoken over TLS to it (`https://` URLs). */
  tls?: boolean | undefined;
}

/**
 * What an upstream proxy answered when it refused a tunnel: an HTTP status and its headers (names
 * lower-case), or a SOCKS5 reply code ('auth' for a refused RFC 1929 login). A wholesale network's
 * grammar reads it (supply/grammar.ts classify); nothing of it reaches the customer.
 */
export class UpstreamRefusal extends Error {
  constructor(
    readonly answer:
      | { protocol: 'http'; status: number; headers: Record<string, string> }
      | { protocol: 'socks5'; reply: number | 'auth' },
  ) {
    super(
      answer.protocol === 'http'
        ? `upstream proxy answered ${answer.status}`
        : `upstream proxy refused: ${answer.reply === 'auth' ? 'authentication failed' : `reply ${answer.reply}`}`,
    );
  }
}

/** Header fields of a response head (after its status line), names lower-case, values trimmed. */
function headerFields(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
  }
  return headers;
}

/**
 * An upstream exit's proxy URL: `http://user:pass@host:port` (CONNECT) or `socks5://user:pass@host:port`
 * (`socks5h` is accepted as the same: the gateway always hands the upstream a resolved, checked address).
 * Null when it is not one.
 */
export function parseUpstreamUrl(text: string): UpstreamProxy | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const isTls = url.protocol === 'https:';
  const protocol =
    url.protocol === 'http:' || isTls ? 'http' : /^socks5h?:$/.test(url.protocol) ? 'socks5' : null;
  // URL drops a scheme's default port (http:80, https:443), so an explicit one is read from the text.
  const defaultPort = isTls ? 443 : 80;
  const port =
    url.port === '' && protocol === 'http' && new RegExp(`:${defaultPort}/?$`).test(text.trim())
      ? defaultPort
      : Number(url.port);
  if (
    !protocol ||
    !url.hostname ||
    !Number.isInteger(port) ||
    port < 1 ||
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    return null;
  }
  return {
    protocol,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    ...(isTls ? { tls: true } : {}),
  };
}

/** CONNECT through an HTTP proxy: any 2xx opens the tunnel; bytes after the response head are kept. */
function connectViaHttp(
  proxy: UpstreamProxy,
  address: string,
  port: number,
  timeoutMs: number,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = proxy.tls
      ? tlsConnect({ host: proxy.host, port: proxy.port, servername: serverName(proxy.host) })
      : tcpConnect({ host: proxy.host, port: proxy.port });
    socket.setNoDelay(true);
    const authority = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
    let head = Buffer.alloc(0);
    const cleanUp = () => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', fail);
      socket.off('close', onClose);
    };
    const fail = (error: Error) => {
      cleanUp();
      socket.destroy();
      reject(error);
    };
    const onClose = () => fail(new Error('upstream proxy closed the connection before answering'));
    // A hard bound on the whole handshake: a proxy that trickles bytes must not hold the exit open.
    const timer = setTimeout(() => fail(new Error('upstream proxy timed out')), timeoutMs);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > MAX_RESPONSE_HEAD) {
          fail(new Error('upstream proxy sent an oversized response'));
        }
        return;
      }
      const text = head.subarray(0, end).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      if (!status) {
        fail(new Error('upstream proxy answered garbage'));
        return;
      }
      if (!status.startsWith('2')) {
        fail(new UpstreamRefusal({ protocol: 'http', status: Number(status), headers: headerFields(text) }));
        return;
      }
      cleanUp();
      // Paused, with the target's first bytes (if they came with the head) put back for the consumer.
      socket.pause();
      const rest = head.subarray(end + 4);
      if (rest.length > 0) {
        socket.unshift(rest);
      }
      resolve(socket);
    };
    socket.on('data', onData);
    socket.on('error', fail);
    socket.on('close', onClose);
    socket.once(proxy.tls ? 'secureConnect' : 'connect', () => {
      const auth =
        proxy.username !== undefined
          ? `Proxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}\r\n`
          : '';
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
    });
  });
}

/** A server name for TLS: none for an IP address (RFC 6066 forbids one). */
function serverName(host: string): string | undefined {
  return /^[\d.]+$|:/.test(host) ? undefined : host;
}

const SOCKS5_REPLY = / - (\w+)$/;
const SOCKS5_REPLIES: Record<string, number> = {
  Failure: 1,
  NotAllowed: 2,
  NetworkUnreachable: 3,
  HostUnreachable: 4,
  ConnectionRefused: 5,
  TTLExpired: 6,
  CommandNotSupported: 7,
  AddressNotSupported: 8,
};

/** The socks library's failure as what the proxy answered, when it answered at all. */
function socksRefusal(error: unknown): unknown {
  const message = error instanceof Error ? error.message : '';
  if (message.includes('Authentication failed')) {
    return new UpstreamRefusal({ protocol: 'socks5', reply: 'auth' });
  }
  const reply = SOCKS5_REPLIES[SOCKS5_REPLY.exec(message)?.[1] ?? ''];
  return reply === undefined ? error : new UpstreamRefusal({ protocol: 'socks5', reply });
}

async function connectViaSocks5(
  proxy: UpstreamProxy,
  address: string,
  port: number,
  timeoutMs: number,
): Promise<Socket> {
  const { socket } = await SocksClient.createConnection({
    proxy: {
      host: proxy.host,
      port: proxy.port,
      type: 5,
      ...(proxy.username !== undefined ? { userId: proxy.username, password: proxy.password ?? '' } : {}),
    },
    command: 'connect',
    destination: { host: address, port },
    timeout: timeoutMs,
  }).catch((error: unknown) => {
    throw socksRefusal(error);
  });
  socket.setNoDelay(true);
  return socket;
}

/** A tunnel to address:port through an upstream proxy, opened within `timeoutMs` or failed. */
export function connectViaUpstream(
  proxy: UpstreamProxy,
  address: string,
  port: number,
  timeoutMs: number,
): Promise<Socket> {
  return proxy.protocol === 'http'
    ? connectViaHttp(proxy, address, port, timeoutMs)
    : connectViaSocks5(proxy, address, port, timeoutMs);
}
