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
    const status = await requestStatus(socket, target, timeoutMs - connectMs);
    return status < 500
      ? { isOk: true, connectMs, error: null }
      : { isOk: false, connectMs, error: `the target answered ${status} through the exit` };
  } catch (error) {
    return { isOk: false, connectMs, error: messageOf(error) };
  } finally {
    socket.destroy();
  }
}

/** Sends `GET` over an open connection (in TLS for https) and answers the status of the reply. */
function requestStatus(socket: Socket, target: ProbeTarget, timeoutMs: number): Promise<number> {
  const { url } = target;
  const channel =
    url.protocol === 'https:'
      ? tlsConnect({
          socket,
          servername: isIP(url.hostname) ? undefined : url.hostname,
          ALPNProtocols: ['http/1.1'],
        })
      : socket;
  return new Promise<number>((resolve, reject) => {
    let head = Buffer.alloc(0);
    const finish = (error: Error | null, status = 0) => {
      clearTimeout(timer);
      channel.off('data', onData);
      channel.destroy();
      if (error) {
        reject(error);
      } else {
        resolve(status);
      }
    };
    const timer = setTimeout(
      () => finish(new Error(`no answer from the target within ${Math.round(timeoutMs / 1000)} s`)),
      Math.max(1, timeoutMs),
    );
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const lineEnd = head.indexOf('\r\n');
      if (lineEnd === -1) {
        if (head.length > MAX_ANSWER_HEAD) {
          finish(new Error('the target sent no HTTP status line'));
        }
        return;
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, lineEnd).toString('latin1'))?.[1];
      finish(status ? null : new Error('the target did not answer HTTP'), Number(status));
    };
    channel.on('data', onData);
    channel.once('error', (error) => finish(error));
    channel.once('close', () => finish(new Error('the connection closed before the target answered')));
    channel.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: Bytegate-exit-probe\r\n` +
        'Accept: */*\r\nConnection: close\r\n\r\n',
    );
    // An upstream exit's tunnel arrives paused (no early byte lost): read it now.
    socket.resume();
  });
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
