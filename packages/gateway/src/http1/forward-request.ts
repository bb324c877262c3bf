// The request a forward exchange sends to its target, rewritten from what the client sent.
import { type Framing, MessageFields, type RequestHead } from './messages.ts';

export interface ForwardRequest {
  method: string;
  /** The head as the target gets it: origin-form, its Host, no hop-by-hop headers. */
  head: Buffer;
  framing: Framing;
  /** The client's HTTP minor version and whether it wants to send another request after this one. */
  clientMinor: number;
  clientKeepAlive: boolean;
  /** The protocol the client asks to switch to (sent on with the request); a 101 answer is then expected. */
  upgrade: string | undefined;
}

/**
 * What goes to the target for a client's absolute-form request: origin-form request line, the URL's
 * authority as Host (RFC 9112 3.2.2), no hop-by-hop headers. Throws MalformedMessage for a body that
 * could be read two ways.
 */
export function forwardRequestFor(
  head: RequestHead,
  url: { authority: string; path: string },
): ForwardRequest {
  const fields = new MessageFields(head.headers);
  const framing = fields.requestFraming();
  const upgrade = fields.requestedUpgrade();
  // Upgrade is hop-by-hop; a proxy that carries the switch passes it on explicitly (RFC 9110 7.8).
  const upgradeLines = upgrade ? `Connection: Upgrade\r\nUpgrade: ${upgrade}\r\n` : '';
  const text = fields.serialize(
    `${head.method} ${url.path} HTTP/1.1`,
    `Host: ${url.authority}\r\n`,
    upgradeLines,
    'host',
  );
  return {
    method: head.method,
    head: Buffer.from(text, 'latin1'),
    framing,
    clientMinor: head.minor,
    clientKeepAlive: fields.keepsAlive(head.minor),
    upgrade,
  };
}
