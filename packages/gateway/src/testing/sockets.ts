import { execFile } from 'node:child_process';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { promisify } from 'node:util';

/** Helpers for the real-socket tests: curl with its own byte counts, raw SOCKS5 bytes, free ports. */

export const run = promisify(execFile);

/**
 * curl through the gateway; answers the body, status and curl's own byte counts (size_request already
 * includes an uploaded body; size_upload is read only to prove it).
 */
export async function curl(args: string[]) {
  const format = '\n%{http_code} %{size_request} %{size_upload} %{size_header} %{size_download}';
  // A connection the gateway cuts makes curl exit non-zero; what it got is still on stdout.
  const stdout = await run('curl', ['-s', '--max-time', '10', '-w', format, ...args]).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => error.stdout ?? '',
  );
  const cut = stdout.lastIndexOf('\n');
  const [status, request, upload, header, download] = stdout
    .slice(cut + 1)
    .split(' ')
    .map(Number);
  return {
    body: stdout.slice(0, cut),
    status,
    sentBytes: request ?? 0,
    uploadBytes: upload ?? 0,
    receivedBytes: (header ?? 0) + (download ?? 0),
  };
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * Ports handed to processes a test starts come from below Linux's ephemeral range (32768 and up): a
 * port there that was free a moment ago can be taken at any time as the local end of some outgoing
 * connection (thousands a second in the load suites) before the process binds it.
 */
const FIRST_PORT = 20_000;
const PORTS = 12_000;

/** A port that was free a moment ago on 127.0.0.1 (another process may take it before it is bound). */
export async function freePort(): Promise<number> {
  return (await freeRange(1)).first;
}

/** A run of `count` consecutive free ports (a sticky range). */
export async function freeRange(count: number): Promise<{ first: number; last: number }> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const first = FIRST_PORT + Math.floor(Math.random() * (PORTS - count));
    const all = await Promise.all(Array.from({ length: count }, (_, i) => isFree(first + i)));
    if (all.every(Boolean)) {
      return { first, last: first + count - 1 };
    }
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

/** Raw SOCKS5 bytes to the gateway: answers everything it replied before closing (or within `waitMs`). */
export function rawSocks(port: number, bytes: Buffer[], waitMs = 2000): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    socket.on('data', (chunk) => got.push(chunk));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(got));
    });
    // Sent one byte at a time, a millisecond apart, to exercise a reader that must reassemble.
    void (async () => {
      for (const message of bytes) {
        for (const byte of message) {
          if (socket.destroyed) {
            return;
          }
          socket.write(Buffer.from([byte]));
          await new Promise((next) => setTimeout(next, 1));
        }
      }
    })();
  });
}

export const greeting = (...methods: number[]) => Buffer.from([0x05, methods.length, ...methods]);

export const userPass = (user: string, pass: string) =>
  Buffer.concat([
    Buffer.from([0x01, Buffer.byteLength(user)]),
    Buffer.from(user),
    Buffer.from([Buffer.byteLength(pass)]),
    Buffer.from(pass),
  ]);

/** A CONNECT request to 127.0.0.1:port (ATYP IPv4). */
export const connectIpv4 = (port: number) => {
  const out = Buffer.from([0x05, 0x01, 0x00, 0x01, 127, 0, 0, 1, 0, 0]);
  out.writeUInt16BE(port, 8);
  return out;
};

export interface CountingRelay {
  port: number;
  /** Bytes that crossed the relay's connections to the target, both directions, once they closed. */
  bytes(): number;
  /** Resolves when every relayed connection has closed. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A plain TCP pass-through in front of a port: it counts what a client socket carried, handshakes
 * included, measured outside the gateway, so a test can hold the bill to it exactly.
 */
export async function countingRelay(targetPort: number): Promise<CountingRelay> {
  let bytes = 0;
  const open = new Set<Socket>();
  let onIdle: (() => void) | undefined;
  const server = createServer((client) => {
    const target = connect(targetPort, '127.0.0.1');
    open.add(target);
    client.on('error', () => target.destroy());
    target.on('error', () => client.destroy());
    client.on('close', () => {
      // What the gateway sent after the client left (a TLS close_notify, say) still crossed the wire to
      // here and was billed: it is read and counted before the gateway's side closes.
      target.unpipe(client);
      target.resume();
      target.end();
      setTimeout(() => target.destroy(), 2000).unref();
    });
    target.on('close', () => {
      client.destroy();
      bytes += target.bytesRead + target.bytesWritten;
      open.delete(target);
      if (open.size === 0) {
        onIdle?.();
      }
    });
    client.pipe(target);
    target.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    bytes: () => bytes,
    idle: () =>
      open.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            onIdle = resolve;
          }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
