import { type Socket, connect as tcpConnect } from 'node:net';
import { SocksClient } from 'socks';

const MAX_RESPONSE_HEAD = 16 * 1024;

export interface UpstreamProxy {
  protocol: 'http' | 'socks5';
  host: string;
  port: number;
  username?: string | undefined;
  password?: string | undefined;
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
  const protocol = url.protocol === 'http:' ? 'http' : /^socks5h?:$/.test(url.protocol) ? 'socks5' : null;
  // URL drops a scheme's default port (http:80), so an explicit ":80" is read from the text itself.
  const port = url.port === '' && protocol === 'http' && /:80\/?$/.test(text.trim()) ? 80 : Number(url.port);
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
    const socket = tcpConnect({ host: proxy.host, port: proxy.port });
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
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1];
      if (!status?.startsWith('2')) {
        fail(new Error(`upstream proxy answered ${status ?? 'garbage'}`));
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
    socket.once('connect', () => {
      const auth =
        proxy.username !== undefined
          ? `Proxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}\r\n`
          : '';
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
    });
  });
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
