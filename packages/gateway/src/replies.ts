import { type GatewayErrorCode, gatewayErrors } from './errors.ts';

/**
 * Text for an RFC 8941 sf-string (Proxy-Status `details`): printable ASCII only, with `"` and `\`
 * escaped. Messages can carry what a client sent (a username key), so CR, LF and every other control
 * or non-ASCII character becomes `?`: nothing a client sends can end the header or start another.
 */
export function headerSafeText(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, (c) => `\\${c}`);
}

/**
 * The raw HTTP reply for a refusal: the code as reason phrase, `X-Bytegate-Error`, RFC 9209
 * `Proxy-Status`, and `Proxy-Authenticate` on a 407 (`Retry-After` on a 429 or 503). Answers the bytes,
 * so the meter can leave them out.
 */
export function errorReply(code: GatewayErrorCode, message: string, retryAfterSeconds?: number): Buffer {
  const { status, proxyStatus } = gatewayErrors[code];
  const body = `${status} ${code}: ${message}\n`;
  const details = headerSafeText(`${code}: ${message}`);
  const lines = [
    `HTTP/1.1 ${status} ${code}`,
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Bytegate-Error: ${code}`,
    `Proxy-Status: bytegate; error=${proxyStatus}; details="${details}"`,
    ...(status === 407 ? ['Proxy-Authenticate: Basic realm="Bytegate"'] : []),
    ...(retryAfterSeconds === undefined ? [] : [`Retry-After: ${retryAfterSeconds}`]),
    'Connection: close',
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

export const CONNECT_ESTABLISHED = Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n');
