// The bench's client side: CONNECT tunnels through the gateway to the origin, bulk reads checked byte by
// byte against the origin's pattern, and the time a new tunnel takes to its first byte.
import { connect, type Socket } from 'node:net';
import { BENCH_PLANS, ORIGIN_HOST, type Via } from './config.ts';
import { BLOCK, PatternCheck } from './pattern.ts';

export interface Target {
  httpPort: number;
  originPort: number;
}

/** Opens a CONNECT tunnel to the origin through the gateway with the plan of `via`; resolves on its 200. */
export function openTunnel(target: Target, via: Via): Promise<Socket> {
  const { login, password } = BENCH_PLANS[via];
  return new Promise((resolve, reject) => {
    const socket = connect(target.httpPort, '127.0.0.1');
    socket.setNoDelay(true);
    const timer = setTimeout(() => fail(new Error('CONNECT got no answer within 30 s')), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    const authority = `${ORIGIN_HOST}:${target.originPort}`;
    const auth = Buffer.from(`${login}:${password}`).toString('base64');
    socket.write(
      `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
    );
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', fail);
      socket.pause();
      const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      if (!/^HTTP\/1\.[01] 200/.test(status)) {
        socket.destroy();
        reject(new Error(`CONNECT through the ${via} exit refused: ${status}`));
        return;
      }
      if (head.length > end + 4) {
        socket.unshift(head.subarray(end + 4));
      }
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

/** Asks the origin for `bytes` on an open tunnel and reads them to the end, checking every byte. */
function readChecked(socket: Socket, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = new PatternCheck();
    const timer = setTimeout(() => fail(new Error('a bulk read took over 120 s')), 120_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.on('data', (chunk: Buffer) => check.take(chunk));
    socket.once('error', fail);
    socket.once('end', () => {
      clearTimeout(timer);
      if (check.bad !== null) {
        fail(new Error(`byte ${check.bad} differed from what the origin sent`));
      } else if (check.offset !== bytes) {
        fail(new Error(`read ${check.offset} bytes of ${bytes}`));
      } else {
        socket.destroy();
        resolve();
      }
    });
    socket.resume();
    socket.write(`${bytes}\n`);
  });
}

/**
 * Reads `totalBytes` from the origin over `streams` tunnels at once (opened first, not timed); answers
 * the seconds from the requests to the last byte. Every byte is checked against the origin's pattern.
 */
export async function bulkRead(
  target: Target,
  via: Via,
  streams: number,
  totalBytes: number,
): Promise<number> {
  const perStream = Math.floor(totalBytes / streams);
  const sockets = await Promise.all(Array.from({ length: streams }, () => openTunnel(target, via)));
  const started = performance.now();
  try {
    await Promise.all(sockets.map((socket) => readChecked(socket, perStream)));
  } finally {
    for (const socket of sockets) {
      socket.destroy();
    }
  }
  return (performance.now() - started) / 1000;
}

/**
 * A new tunnel from nothing: connection to the gateway, CONNECT, its 200 (`openMs`), then one byte asked
 * of the origin and its arrival (`firstByteMs`), both from the start. The byte is checked too.
 */
export async function newTunnel(target: Target, via: Via): Promise<{ openMs: number; firstByteMs: number }> {
  const started = performance.now();
  const socket = await openTunnel(target, via);
  const openMs = performance.now() - started;
  const first = await new Promise<Buffer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no first byte within 30 s')), 30_000);
    socket.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve(chunk);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('end', () => {
      clearTimeout(timer);
      reject(new Error('the tunnel ended before its first byte'));
    });
    socket.resume();
    socket.write('1\n');
  });
  const firstByteMs = performance.now() - started;
  socket.destroy();
  if (first[0] !== BLOCK[0]) {
    throw new Error(`the first byte was ${first[0]}, not the origin's ${BLOCK[0]}`);
  }
  return { openMs, firstByteMs };
}
