import { type AddressInfo, createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * Minimal upstream proxies for tests, written from the RFCs rather than with our own listeners, so an
 * upstream exit is checked against an independent implementation: HTTP CONNECT with Basic
 * Proxy-Authorization (RFC 9110), and SOCKS5 (RFC 1928) with username/password (RFC 1929).
 */

export interface SeenAttempt {
  username: string | undefined;
  password: string | undefined;
  /** host:port as the client asked for it. */
  target: string;
}

export interface FakeProxy {
  port: number;
  /** Every tunnel asked for, with the credentials given (also the refused ones). */
  seen: SeenAttempt[];
  close(): Promise<void>;
}

/** Reads a socket as a byte stream with explicit lengths; hands the rest over when the handshake is done. */
function byteReader(socket: Socket) {
  let buffered = Buffer.alloc(0);
  let ended = false;
  let wake: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  };
  socket.on('data', onData);
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  socket.once('end', onEnd);
  socket.once('close', onEnd);
  const waitFor = async (ready: () => boolean) => {
    while (!ready()) {
      if (ended || socket.destroyed) {
        throw new Error('client went away during the handshake');
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  return {
    async read(length: number): Promise<Buffer> {
      await waitFor(() => buffered.length >= length);
      const out = buffered.subarray(0, length);
      buffered = buffered.subarray(length);
      return out;
    },
    /** Up to and including the blank line that ends an HTTP head. */
    async readHead(): Promise<string> {
      await waitFor(() => buffered.includes('\r\n\r\n'));
      const end = buffered.indexOf('\r\n\r\n') + 4;
      const head = buffered.subarray(0, end).toString('latin1');
      buffered = buffered.subarray(end);
      return head;
    },
    /** Stops reading: answers the bytes read ahead, which belong to the tunnel. */
    release(): Buffer {
      socket.off('data', onData);
      socket.pause();
      return buffered;
    },
  };
}

/** What a gated proxy answers one attempt: open the tunnel (from `localAddress`, if given), or refuse. */
export type ProxyAnswer =
  | { open: true; localAddress?: string | undefined }
  | {
      open: false;
      /** The HTTP answer: status, reason phrase and headers. */
      status: number;
      reason: string;
      headers?: Record<string, string>;
      /** The SOCKS5 answer: an RFC 1929 failure, or this reply code to the CONNECT request. */
      socks: 'auth' | number;
    };

/** Decides each attempt from the credentials it gave (undefined when it gave none). */
export type ProxyGate = (credentials: {
  username: string | undefined;
  password: string | undefined;
}) => ProxyAnswer;

/** The gate of a proxy with one account: its credentials open, anything else is refused as auth. */
const accountGate =
  (account: { username: string; password: string }): ProxyGate =>
  ({ username, password }) =>
    username === account.username && password === account.password
      ? { open: true }
      : { open: false, status: 407, reason: 'Proxy Authentication Required', socks: 'auth' };

function openTarget(host: string, port: number, localAddress?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const target = tcpConnect({ host, port, ...(localAddress === undefined ? {} : { localAddress }) });
    target.once('error', reject);
    target.once('connect', () => {
      target.off('error', reject);
      resolve(target);
    });
  });
}

function splice(client: Socket, target: Socket, early: Buffer): void {
  client.on('error', () => target.destroy());
  target.on('error', () => client.destroy());
  client.on('close', () => target.destroy());
  target.on('close', () => client.destroy());
  if (early.length > 0) {
    target.write(early);
  }
  client.pipe(target);
  target.pipe(client);
  client.resume();
}

async function listen(onSocket: (socket: Socket, seen: SeenAttempt[]) => Promise<void>): Promise<FakeProxy> {
  const seen: SeenAttempt[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    onSocket(socket, seen).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

export interface HttpProxyOptions {
  coalesce?: boolean;
  answerDelayMs?: number;
}

/**
 * An HTTP CONNECT proxy that requires `username:password`. With `coalesce`, it waits for the target's
 * first bytes and sends them in the same write as its 200 answer (what a server-first protocol does to
 * a real proxy), so the client must keep bytes that follow the response head. With `answerDelayMs`, it
 * is that slow to answer (a distant provider), so a client's bytes arrive while the tunnel opens.
 */
export function startHttpConnectProxy(
  account: { username: string; password: string } & HttpProxyOptions,
): Promise<FakeProxy> {
  return startGatedHttpProxy(accountGate(account), account);
}

/** An HTTP CONNECT proxy whose `gate` decides each attempt (a fake vendor network's grammar). */
export function startGatedHttpProxy(gate: ProxyGate, options: HttpProxyOptions = {}): Promise<FakeProxy> {
  return listen(async (client, seen) => {
    const reader = byteReader(client);
    const head = await reader.readHead();
    const [, target = ''] = /^CONNECT (\S+) HTTP\/1\.1\r\n/.exec(head) ?? [];
    const auth = /^proxy-authorization: *basic +(\S+)\r$/im.exec(head)?.[1];
    const decoded = auth ? Buffer.from(auth, 'base64').toString('utf8') : undefined;
    const colon = decoded?.indexOf(':') ?? -1;
    const username = decoded && colon >= 0 ? decoded.slice(0, colon) : undefined;
    const password = decoded && colon >= 0 ? decoded.slice(colon + 1) : undefined;
    seen.push({ username, password, target });
    const answer = gate({ username, password });
    if (!answer.open) {
      const headers = Object.entries(answer.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
      client.end(
        `HTTP/1.1 ${answer.status} ${answer.reason}\r\n${headers.join('')}Content-Length: 0\r\n\r\n`,
      );
      return;
    }
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    if (!match?.[1] || !match[2]) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = await openTarget(match[1], Number(match[2]), answer.localAddress).catch(() => null);
    if (!upstream) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const established = Buffer.from('HTTP/1.1 200 Connection established\r\nVia: 1.1 fake\r\n\r\n');
    if (options.answerDelayMs) {
      await new Promise((resolve) => setTimeout(resolve, options.answerDelayMs));
    }
    if (options.coalesce) {
      const first = await new Promise<Buffer>((resolve) =>
        upstream.once('data', (chunk: Buffer) => {
          upstream.pause(); // at once: a chunk emitted with no listener would be lost
          resolve(chunk);
        }),
      );
      client.write(Buffer.concat([established, first]));
    } else {
      client.write(established);
    }
    splice(client, upstream, reader.release());
    upstream.resume();
  });
}

/** A SOCKS5 proxy that offers only username/password authentication and then CONNECT. */
export function startSocks5Proxy(account: { username: string; password: string }): Promise<FakeProxy> {
  return startGatedSocks5Proxy(accountGate(account));
}

/**
 * A SOCKS5 proxy whose `gate` decides each attempt at the RFC 1929 stage: a refusal with `socks: 'auth'`
 * fails the authentication, one with a reply code answers the CONNECT request with it.
 */
export function startGatedSocks5Proxy(gate: ProxyGate): Promise<FakeProxy> {
  return listen(async (client, seen) => {
    const reader = byteReader(client);
    const [version = 0, methodCount = 0] = await reader.read(2);
    const methods = await reader.read(methodCount);
    if (version !== 5 || !methods.includes(0x02)) {
      client.end(Buffer.from([5, 0xff]));
      return;
    }
    client.write(Buffer.from([5, 0x02]));
    const [, userLength = 0] = await reader.read(2);
    const username = (await reader.read(userLength)).toString('utf8');
    const [passwordLength = 0] = await reader.read(1);
    const password = (await reader.read(passwordLength)).toString('utf8');
    const answer = gate({ username, password });
    const isAuthFailure = !answer.open && answer.socks === 'auth';
    client.write(Buffer.from([1, isAuthFailure ? 1 : 0]));
    if (isAuthFailure) {
      seen.push({ username, password, target: '' });
      client.end();
      return;
    }
    const [, command, , addressType] = await reader.read(4);
    let host: string;
    if (addressType === 1) {
      host = [...(await reader.read(4))].join('.');
    } else if (addressType === 4) {
      const raw = await reader.read(16);
      host = Array.from({ length: 8 }, (_, i) => raw.readUInt16BE(i * 2).toString(16)).join(':');
    } else {
      const [length = 0] = await reader.read(1);
      host = (await reader.read(length)).toString('utf8');
    }
    const port = (await reader.read(2)).readUInt16BE(0);
    seen.push({ username, password, target: `${host.includes(':') ? `[${host}]` : host}:${port}` });
    if (!answer.open) {
      client.end(Buffer.from([5, answer.socks === 'auth' ? 1 : answer.socks, 0, 1, 0, 0, 0, 0, 0, 0]));
      return;
    }
    const upstream =
      command === 1 ? await openTarget(host, port, answer.localAddress).catch(() => null) : null;
    // REP 0x00 succeeded, 0x05 connection refused; the bound address is not needed by clients.
    client.write(Buffer.from([5, upstream ? 0 : 5, 0, 1, 0, 0, 0, 0, 0, 0]));
    if (!upstream) {
      client.end();
      return;
    }
    splice(client, upstream, reader.release());
  });
}

/** Accepts a connection, reads the first bytes, and hangs up without a word. */
export function startSilentProxy(): Promise<FakeProxy> {
  return listen(async (client, seen) => {
    await new Promise((resolve) => client.once('data', resolve));
    seen.push({ username: undefined, password: undefined, target: '' });
    client.end();
  });
}
