import { STATUS_CODES } from 'node:http';
import { type GatewayErrorCode, gatewayErrors } from './errors.ts';

/**
 * The raw HTTP reply for a refusal: the code as reason phrase, `X-Bytegate-Error`, RFC 9209
 * `Proxy-Status`, and `Proxy-Authenticate` on a 407. Answers the bytes, so the meter can leave them out.
 */
export function errorReply(code: GatewayErrorCode, message: string): Buffer {
  const { status, proxyStatus } = gatewayErrors[code];
  const body = `${status} ${code}: ${message}\n`;
  const details = `${code}: ${message}`.replace(/["\\]/g, "'");
  const lines = [
    `HTTP/1.1 ${status} ${code}`,
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Bytegate-Error: ${code}`,
    `Proxy-Status: bytegate; error=${proxyStatus}; details="${details}"`,
    ...(status === 407 ? ['Proxy-Authenticate: Basic realm="Bytegate"'] : []),
    'Connection: close',
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

export const CONNECT_ESTABLISHED = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n');

export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}
