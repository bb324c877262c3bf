// Load generators: bulk readers through CONNECT, SOCKS5 or directly; wrk for small requests; idle tunnels.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SocksClient } from 'socks';

const run = promisify(execFile);

export type Route =
  | { kind: 'direct' }
  | { kind: 'connect'; port: number; auth?: string }
  | { kind: 'socks5'; port: number; user?: string; password?: string };

/** Opens a byte stream to 127.0.0.1:targetPort along a route; resolves once bytes may flow. */
export async function openStream(route: Route, targetPort: number): Promise<Socket> {
  if (route.kind === 'direct') {
    return new Promise((resolve, reject) => {
      const socket = connect(targetPort, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    });
  }
  if (route.kind === 'socks5') {
    const { socket } = await SocksClient.createConnection({
      proxy: {
        host: '127.0.0.1',
        port: route.port,
        type: 5,
        ...(route.user ? { userId: route.user, password: route.password ?? '' } : {}),
      },
      command: 'connect',
      destination: { host: '127.0.0.1', port: targetPort },
      timeout: 30_000,
    });
    return socket;
  }
  return new Promise((resolve, reject) => {
    const socket = connect(route.port, '127.0.0.1');
    socket.setNoDelay(true);
    const timer = setTimeout(() => {
      reject(new Error('CONNECT got no answer within 30 s'));
      socket.destroy();
    }, 30_000);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const auth = route.auth
      ? `Proxy-Authorization: Basic ${Buffer.from(route.auth).toString('base64')}\r\n`
      : '';
    socket.write(`CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\n${auth}\r\n`);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      socket.pause();
      if (!/^HTTP\/1\.[01] 200/.test(head)) {
        reject(new Error(`CONNECT refused: ${head.split('\r\n')[0]}`));
        socket.destroy();
        return;
      }
      const rest = Buffer.from(head.slice(end + 4), 'latin1');
      if (rest.length > 0) {
        socket.unshift(rest);
      }
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

/**
 * Reads `totalBytes` from the origin's bulk port split over `streams` parallel connections; answers MB/s
 * (10^6 bytes per second) over all of them, timed from the request to the last byte.
 */
export async function bulkThroughput(
  route: Route,
  bulkPort: number,
  streams: number,
  totalBytes: number,
): Promise<number> {
  const perStream = Math.floor(totalBytes / streams);
  const sockets = await Promise.all(Array.from({ length: streams }, () => openStream(route, bulkPort)));
  const started = process.hrtime.bigint();
  try {
    const totals = await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<number>((resolve, reject) => {
            let bytes = 0;
            const timer = setTimeout(() => reject(new Error('bulk read took over 60 s')), 60_000);
            socket.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
            });
            socket.once('end', () => {
              clearTimeout(timer);
              resolve(bytes);
            });
            socket.once('error', (error) => {
              clearTimeout(timer);
              reject(error);
            });
            socket.resume();
            socket.write(`${perStream}\n`);
          }),
      ),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const bytes = totals.reduce((sum, n) => sum + n, 0);
    if (bytes !== perStream * streams) {
      throw new Error(`read ${bytes} bytes of ${perStream * streams}`);
    }
    return bytes / seconds / 1e6;
  } finally {
    for (const socket of sockets) {
      socket.destroy();
    }
  }
}

/**
 * GET of a `totalBytes` body (Content-Length) from the origin's HTTP port, directly or through an HTTP
 * proxy's forward path (absolute-form); answers MB/s of body, timed from the request to its last byte.
 */
export function forwardBulk(
  route: { kind: 'direct' } | { kind: 'forward'; port: number; auth?: string },
  httpPort: number,
  totalBytes: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const direct = route.kind === 'direct';
    const socket = connect(direct ? httpPort : route.port, '127.0.0.1');
    const timer = setTimeout(() => fail(new Error('forward bulk took over 60 s')), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    const path = `/bulk/${totalBytes}`;
    const auth =
      !direct && route.auth
        ? `Proxy-Authorization: Basic ${Buffer.from(route.auth).toString('base64')}\r\n`
        : '';
    const started = process.hrtime.bigint();
    socket.write(
      `GET ${direct ? path : `http://127.0.0.1:${httpPort}${path}`} HTTP/1.1\r\nHost: 127.0.0.1:${httpPort}\r\n${auth}\r\n`,
    );
    let head = '';
    let body = -1;
    socket.on('data', (chunk: Buffer) => {
      if (body === -1) {
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) {
          return;
        }
        if (!/^HTTP\/1\.[01] 200/.test(head)) {
          fail(new Error(`forward refused: ${head.split('\r\n')[0]}`));
          return;
        }
        body = head.length - end - 4;
        head = '';
      } else {
        body += chunk.length;
      }
      if (body >= totalBytes) {
        clearTimeout(timer);
        socket.destroy();
        resolve(totalBytes / (Number(process.hrtime.bigint() - started) / 1e9) / 1e6);
      }
    });
    socket.once('end', () =>
      fail(new Error(`the answer ended after ${Math.max(0, body)} of ${totalBytes} bytes`)),
    );
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** wrk's socket errors (connect, read, write, timeout), summed. */
  socketErrors: number;
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : n;
}

/**
 * wrk against the origin's HTTP port, directly or through an HTTP proxy (wrk connects to the proxy and
 * sends absolute-form requests with Proxy-Authorization, set by a Lua script).
 */
export async function wrk(options: {
  dir: string;
  originPort: number;
  proxyPort?: number;
  auth?: string;
  connections: number;
  threads: number;
  seconds: number;
}): Promise<WrkResult> {
  const target = `http://127.0.0.1:${options.originPort}/`;
  const args = [
    '-t',
    String(options.threads),
    '-c',
    String(options.connections),
    '-d',
    `${options.seconds}s`,
    '--latency',
  ];
  if (options.proxyPort) {
    const script = join(options.dir, `proxy-${options.proxyPort}.lua`);
    const auth = options.auth
      ? `wrk.headers["Proxy-Authorization"] = "Basic ${Buffer.from(options.auth).toString('base64')}"\n`
      : '';
    writeFileSync(
      script,
      `wrk.method = "GET"\nwrk.path = "${target}"\nwrk.headers["Host"] = "127.0.0.1:${options.originPort}"\n${auth}`,
    );
    args.push('-s', script, `http://127.0.0.1:${options.proxyPort}/`);
  } else {
    args.push(target);
  }
  const { stdout } = await run('wrk', args, { timeout: (options.seconds + 30) * 1000 });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1];
  const p50 = /\s50%\s+([\d.]+)(us|ms|s)/.exec(stdout);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(stdout);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1];
  if (!rps || !p50 || !p99) {
    throw new Error(`could not read wrk's output:\n${stdout}`);
  }
  if (non2xx && Number(non2xx) > 0) {
    throw new Error(`${non2xx} requests failed through the proxy:\n${stdout}`);
  }
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return {
    requestsPerSecond: Number(rps),
    p50Ms: toMs(p50[1] ?? '', p50[2] ?? 'ms'),
    p99Ms: toMs(p99[1] ?? '', p99[2] ?? 'ms'),
    requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0),
    socketErrors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

/**
 * Opens `count` idle tunnels along a route, `parallel` at a time, within `withinMs`; answers them (the
 * caller closes them). Each one was answered 200, so the proxy holds both
 * its client socket and its socket to the target. `parallel` stays under the gateway's cap of 64
 * connections authenticating at once from one address (every tunnel here comes from 127.0.0.1).
 */
export async function openIdleTunnels(
  route: Route,
  idlePort: number,
  count: number,
  withinMs = 60_000,
  parallel = 32,
): Promise<Socket[]> {
  const sockets: Socket[] = [];
  const deadline = Date.now() + withinMs;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      if (Date.now() > deadline) {
        throw new Error(`only ${sockets.length} of ${count} tunnels opened within ${withinMs / 1000} s`);
      }
      next += 1;
      const socket = await openStream(route, idlePort);
      socket.on('error', () => undefined);
      sockets.push(socket);
    }
  };
  try {
    await Promise.all(Array.from({ length: parallel }, worker));
  } catch (error) {
    for (const socket of sockets) {
      socket.destroy();
    }
    throw error;
  }
  return sockets;
}
