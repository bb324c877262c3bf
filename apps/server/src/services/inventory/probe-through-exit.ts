import { lookup } from 'node:dns/promises';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { connectThroughExit, EXIT_CONNECT_TIMEOUT_MS, type Exit } from '@bytegate/gateway';

/** A whole probe (connect, request, the answer's status line) gets this long. */
export const PROBE_TIMEOUT_MS = 15_000;
const MAX_ANSWER_HEAD = 16 * 1024;

/** The probe's target, resolved once per round: every exit is handed the same address, as the gateway does. */
export interface ProbeTarget {
  url: URL;
  address: string;
  port: number;
}

export interface ProbeOutcome {
  isOk: boolean;
  /** How long opening the connection through the exit took (null when it did not open). */
  connectMs: number | null;
  error: string | null;
}

/** Resolves EXIT_PROBE_URL's host (DNS at the gateway, like customer traffic); throws when it cannot. */
export async function resolveProbeTarget(urlText: string): Promise<ProbeTarget> {
  const url = new URL(urlText);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const address = isIP(host) ? host : (await lookup(host)).address;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { url, address, port };
}

/**
 * A real request through one exit, as a customer's would go: the gateway's own dialer opens it (a direct
 * exit from its local address, an upstream one through its proxy), then TLS for https, then `GET` of the
 * target's path. Any HTTP answer below 500 means the exit works; a refusal, a timeout, a broken TLS
 * handshake or a 5xx (which may be the upstream proxy's own) does not.
 */
export async function probeThroughExit(
  exit: Exit,
  target: ProbeTarget,
  options: { timeoutMs?: number } = {},
): Promise<ProbeOutcome> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const startedAt = Date.now();
  let socket: Socket;
  try {
    socket = await connectThroughExit(
      exit,
      target.address,
      target.port,
      Math.min(timeoutMs, EXIT_CONNECT_TIMEOUT_MS),
    );
  } catch (error) {
    return { isOk: false, connectMs: null, error: messageOf(error) };
  }
  const connectMs = Date.now() - startedAt;
  try {
    const { status } = await requestAnswer(socket, target, timeoutMs - connectMs);
    return status < 500
      ? { isOk: true, connectMs, error: null }
      : { isOk: false, connectMs, error: `the target answered ${status} through the exit` };
  } catch (error) {
    return { isOk: false, connectMs, error: messageOf(error) };
  } finally {
    socket.destroy();
  }
}

/** What the probe target answered: its status, and (when asked for) the start of its body. */
export interface ProbeAnswer {
  status: number;
  body: string;
}

/**
 * Sends `GET` over an open connection (in TLS for https) and answers the reply's status; with
 * `maxBodyBytes`, also up to that much of its body (the exit IP the target saw, for networks' probes).
 */
export function requestAnswer(
  socket: Socket,
  target: ProbeTarget,
  timeoutMs: number,
  maxBodyBytes = 0,
): Promise<ProbeAnswer> {
  const { url } = target;
  const channel =
    url.protocol === 'https:'
      ? tlsConnect({
          socket,
          servername: isIP(url.hostname) ? undefined : url.hostname,
          ALPNProtocols: ['http/1.1'],
        })
      : socket;
  return new Promise<ProbeAnswer>((resolve, reject) => {
    let received = Buffer.alloc(0);
    let status = 0;
    const finish = (error: Error | null, answer?: ProbeAnswer) => {
      clearTimeout(timer);
      channel.off('data', onData);
      channel.off('end', onEnd);
      channel.destroy();
      if (error || !answer) {
        reject(error ?? new Error('the target did not answer HTTP'));
      } else {
        resolve(answer);
      }
    };
    const timer = setTimeout(
      () => finish(new Error(`no answer from the target within ${Math.round(timeoutMs / 1000)} s`)),
      Math.max(1, timeoutMs),
    );
    /** The body so far, once the head is in (undefined before). */
    const bodyOf = (isEnded: boolean): string | undefined => {
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd === -1) {
        return undefined;
      }
      const head = received.subarray(0, headEnd).toString('latin1');
      const rest = received.subarray(headEnd + 4);
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? Number.NaN);
      const isChunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
      const isComplete = Number.isFinite(length)
        ? rest.length >= length
        : isChunked
          ? rest.includes('\r\n0\r\n')
          : isEnded;
      if (!isComplete && !isEnded && rest.length < maxBodyBytes) {
        return undefined;
      }
      const body = isChunked ? unchunk(rest) : rest.subarray(0, Number.isFinite(length) ? length : undefined);
      return body.subarray(0, maxBodyBytes).toString('utf8');
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (status === 0) {
        const lineEnd = received.indexOf('\r\n');
        if (lineEnd === -1) {
          if (received.length > MAX_ANSWER_HEAD) {
            finish(new Error('the target sent no HTTP status line'));
          }
          return;
        }
        status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(received.subarray(0, lineEnd).toString('latin1'))?.[1]);
        if (!status) {
          finish(new Error('the target did not answer HTTP'));
          return;
        }
        if (maxBodyBytes === 0) {
          finish(null, { status, body: '' });
          return;
        }
      }
      const body = bodyOf(false);
      if (body !== undefined) {
        finish(null, { status, body });
      } else if (received.length > MAX_ANSWER_HEAD + maxBodyBytes) {
        finish(null, { status, body: '' });
      }
    };
    const onEnd = () => {
      const body = status === 0 ? undefined : bodyOf(true);
      finish(body === undefined ? new Error('the connection closed before the target answered') : null, {
        status,
        body: body ?? '',
      });
    };
    channel.on('data', onData);
    channel.once('end', onEnd);
    channel.once('error', (error) => finish(error));
    channel.once('close', onEnd);
    channel.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: Bytegate-exit-probe\r\n` +
        'Accept: */*\r\nConnection: close\r\n\r\n',
    );
    // An upstream exit's tunnel arrives paused (no early byte lost): read it now.
    socket.resume();
  });
}

/** A chunked body's data (as much as is there). */
function unchunk(chunked: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = chunked.indexOf('\r\n', at);
    const size = lineEnd === -1 ? 0 : Number.parseInt(chunked.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) {
      return Buffer.concat(parts);
    }
    parts.push(chunked.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

export function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
