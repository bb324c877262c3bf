// Load of bench/cluster: short CONNECT tunnels (open, one small request and its answer, close) as fast
// as a number of clients can, or one after another for their latency. Bounded in count and in time.
import { connect } from 'node:net';

/** A gateway the clients reach, with the plan's Proxy-Authorization header value. */
export interface Entry {
  port: number;
  auth: string;
}

const TUNNEL_TIMEOUT_MS = 10_000;

/**
 * One tunnel through a gateway to the origin's bulk port: CONNECT, then ask for `bytes` and read them
 * until the origin ends. Answers the ms from writing the CONNECT to reading the whole 200 head.
 */
export function tunnelOnce(entry: Entry, bulkPort: number, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(entry.port, '127.0.0.1');
    socket.setNoDelay(true);
    let sentAt = 0;
    let connectMs = -1;
    let head = '';
    let received = 0;
    let isSettled = false;
    const settle = (error: Error | null) => {
      if (isSettled) {
        return;
      }
      isSettled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) {
        reject(error);
      } else {
        resolve(connectMs);
      }
    };
    const timer = setTimeout(
      () => settle(new Error(`tunnel took over ${TUNNEL_TIMEOUT_MS / 1000} s`)),
      TUNNEL_TIMEOUT_MS,
    );
    socket.once('connect', () => {
      sentAt = performance.now();
      socket.write(
        `CONNECT 127.0.0.1:${bulkPort} HTTP/1.1\r\nHost: 127.0.0.1:${bulkPort}\r\nProxy-Authorization: ${entry.auth}\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (connectMs >= 0) {
        received += chunk.length;
        return;
      }
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        return;
      }
      connectMs = performance.now() - sentAt;
      if (!/^HTTP\/1\.[01] 200/.test(head)) {
        settle(new Error(`CONNECT refused: ${head.split('\r\n')[0]}`));
        return;
      }
      received = head.length - (end + 4);
      socket.write(`${bytes}\n`);
    });
    // The origin ends the connection after its answer; the gateway passes the end on.
    socket.once('end', () =>
      settle(
        connectMs < 0 || received !== bytes
          ? new Error(
              `tunnel ended after ${received} of ${bytes} bytes (CONNECT answered: ${connectMs >= 0})`,
            )
          : null,
      ),
    );
    socket.once('error', (error) => settle(error));
    socket.once('close', () => settle(new Error('closed before its answer')));
  });
}

export interface RateResult {
  tunnels: number;
  seconds: number;
  errors: number;
  firstError: string | undefined;
}

/**
 * `clients` loops opening tunnels one after another, client i through entries[i % entries.length],
 * until `seconds` are up or `maxTunnels` were started (then the ones under way finish).
 */
export async function tunnelRate(
  entries: Entry[],
  bulkPort: number,
  bytes: number,
  options: { clients: number; seconds: number; maxTunnels: number; maxErrors: number },
): Promise<RateResult> {
  const result: RateResult = { tunnels: 0, seconds: 0, errors: 0, firstError: undefined };
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  let begun = 0;
  const client = async (i: number) => {
    const entry = entries[i % entries.length] as Entry;
    while (performance.now() < deadline && begun < options.maxTunnels && result.errors < options.maxErrors) {
      begun += 1;
      try {
        await tunnelOnce(entry, bulkPort, bytes);
        result.tunnels += 1;
      } catch (error) {
        result.errors += 1;
        result.firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, i) => client(i)));
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/**
 * One client, one tunnel after another, through the entries in turn: each one's CONNECT-to-200 time.
 * Stops after `samples` or `seconds`; a failed tunnel throws.
 */
export async function connectLatency(
  entries: Entry[],
  bulkPort: number,
  bytes: number,
  options: { samples: number; seconds: number },
): Promise<number[]> {
  const times: number[] = [];
  const deadline = performance.now() + options.seconds * 1000;
  for (let i = 0; i < options.samples && performance.now() < deadline; i++) {
    times.push(await tunnelOnce(entries[i % entries.length] as Entry, bulkPort, bytes));
  }
  return times;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}
