// HTTP/1.1 message heads and body framing (RFC 9112) for the forward proxy: just what a relay needs to
// rewrite a head and to know where a body ends, so that connections can be kept alive on both sides.
// Bodies pass through untouched (chunked stays chunked); only their end is tracked.

/** Longest request or response head accepted (Node's own default is 16 KiB). */
export const MAX_HEAD_BYTES = 16 * 1024;

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** Where a head ends (the index after its blank line) in `buffer`, or -1 while it is incomplete. */
export function findHeadEnd(buffer: Buffer, from = 0): number {
  const at = buffer.indexOf(CRLFCRLF, Math.max(0, from - 3));
  return at === -1 ? -1 : at + 4;
}

export type Header = [name: string, value: string];

export interface RequestHead {
  method: string;
  target: string;
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  minor: number;
  headers: Header[];
}

export interface ResponseHead {
  status: number;
  reason: string;
  minor: number;
  headers: Header[];
}

export class MalformedMessage extends Error {}

/** Which bytes may be in a header name (RFC 9110 5.6.2 tchar), by char code. */
const TCHAR = new Uint8Array(128);
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
  TCHAR[char.charCodeAt(0)] = 1;
}

function isToken(text: string, start: number, end: number): boolean {
  if (start >= end) {
    return false;
  }
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || TCHAR[code] === 0) {
      return false;
    }
  }
  return true;
}

/**
 * Without the optional whitespace around it: spaces and tabs only (RFC 9110 5.6.3). String's trim
 * would also take a value's own bytes, such as 0xA0 (obs-text, NBSP in latin1).
 */
function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) {
    start += 1;
  }
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) {
    end -= 1;
  }
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * The header lines of a head's text (its first line already read, `from` the start of the second), in
 * one pass over the text: no per-line strings other than each name and value.
 */
function parseHeaders(text: string, from: number): Header[] {
  const headers: Header[] = [];
  let start = from;
  while (start < text.length) {
    let end = text.indexOf('\r\n', start);
    if (end === -1) {
      end = text.length;
    }
    if (end > start) {
      headers.push(parseHeaderLine(text, start, end));
    }
    start = end + 2;
  }
  return headers;
}

function parseHeaderLine(text: string, start: number, end: number): Header {
  const colon = text.indexOf(':', start);
  if (colon === -1 || colon >= end || colon === start) {
    throw new MalformedMessage('a header line without a name');
  }
  if (!isToken(text, start, colon)) {
    // Also refuses obsolete line folding and "Name : value", both smuggling vectors.
    throw new MalformedMessage('a header name that is not a token');
  }
  let valueStart = colon + 1;
  let valueEnd = end;
  while (valueStart < valueEnd && isOws(text.charCodeAt(valueStart))) {
    valueStart += 1;
  }
  while (valueEnd > valueStart && isOws(text.charCodeAt(valueEnd - 1))) {
    valueEnd -= 1;
  }
  for (let i = valueStart; i < valueEnd; i++) {
    const code = text.charCodeAt(i);
    if (code === 13 || code === 10 || code === 0) {
      // A bare CR or LF could end the line for the next hop and smuggle a header past us (RFC 9110 5.5).
      throw new MalformedMessage('a header value with CR, LF or NUL');
    }
  }
  return [text.slice(start, colon), text.slice(valueStart, valueEnd)];
}

const isOws = (code: number) => code === 32 || code === 9;

/** A head's text (latin1 keeps every byte one char, so offsets stay byte-exact), without its blank line. */
function headText(buffer: Buffer, end: number): string {
  return buffer.toString('latin1', 0, end - 4);
}

/** Where the first line ends (its CRLF) in a head's text. */
function firstLineEnd(text: string): number {
  const end = text.indexOf('\r\n');
  return end === -1 ? text.length : end;
}

// The target: no space, no control byte (a NUL or a DEL would reach the target's request line).
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([!-~\x80-\xff]+) HTTP\/1\.([01])$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/;

export function parseRequestHead(buffer: Buffer, end: number): RequestHead {
  const text = headText(buffer, end);
  const lineEnd = firstLineEnd(text);
  const match = REQUEST_LINE.exec(text.slice(0, lineEnd));
  if (!match) {
    throw new MalformedMessage('not an HTTP/1.x request line');
  }
  return {
    method: match[1] as string,
    target: match[2] as string,
    minor: match[3] === '1' ? 1 : 0,
    headers: parseHeaders(text, lineEnd + 2),
  };
}

export function parseResponseHead(buffer: Buffer, end: number): ResponseHead {
  const text = headText(buffer, end);
  const lineEnd = firstLineEnd(text);
  const match = STATUS_LINE.exec(text.slice(0, lineEnd));
  if (!match) {
    throw new MalformedMessage('not an HTTP/1.x status line');
  }
  return {
    minor: match[1] === '1' ? 1 : 0,
    status: Number(match[2]),
    reason: match[3] ?? '',
    headers: parseHeaders(text, lineEnd + 2),
  };
}

/** The value of a header (several joined with ", "), or undefined. Names are compared case-blind. */
export function headerValue(headers: readonly Header[], name: string): string | undefined {
  let value: string | undefined;
  for (const [key, found] of headers) {
    if (key.length === name.length && key.toLowerCase() === name) {
      value = value === undefined ? found : `${value}, ${found}`;
    }
  }
  return value;
}

const join = (value: string | undefined, found: string) =>
  value === undefined ? found : `${value}, ${found}`;

// Hop-by-hop and proxy headers: they describe one connection and never cross the proxy.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * What a relay reads off a message's headers, found in one pass over them (each name lower-cased once):
 * the framing headers, the Connection header's tokens, the Upgrade asked for. Several headers of one
 * name are joined with ", ".
 */
export class MessageFields {
  /** Each header's name in lower case, in order. */
  readonly names: string[];
  contentLength: string | undefined;
  transferEncoding: string | undefined;
  upgrade: string | undefined;
  /** The Connection header's tokens, lower-cased (empty without one). */
  readonly connection: string[] = [];

  constructor(readonly headers: readonly Header[]) {
    const names: string[] = new Array(headers.length);
    let connection: string | undefined;
    for (let i = 0; i < headers.length; i++) {
      const [name, value] = headers[i] as Header;
      const lower = name.toLowerCase();
      names[i] = lower;
      switch (lower) {
        case 'connection':
          connection = join(connection, value);
          break;
        case 'content-length':
          this.contentLength = join(this.contentLength, value);
          break;
        case 'transfer-encoding':
          this.transferEncoding = join(this.transferEncoding, value);
          break;
        case 'upgrade':
          this.upgrade = join(this.upgrade, value);
          break;
      }
    }
    this.names = names;
    if (connection !== undefined) {
      for (const part of connection.toLowerCase().split(',')) {
        this.connection.push(trimOws(part));
      }
    }
  }

  /** Whether the sender wants its connection kept open after this message (RFC 9112 section 9.3). */
  keepsAlive(minor: number): boolean {
    return minor === 1 ? !this.connection.includes('close') : this.connection.includes('keep-alive');
  }

  /**
   * The protocol a request asks to switch to (`Connection: Upgrade` with `Upgrade: websocket`, say), or
   * undefined. Such a request is forwarded with its Upgrade, and a 101 answer turns the connection into
   * a tunnel.
   */
  requestedUpgrade(): string | undefined {
    return this.connection.includes('upgrade') ? this.upgrade : undefined;
  }

  /** Whether the header at `index` crosses the proxy: not hop-by-hop, not named by Connection. */
  isEndToEnd(index: number): boolean {
    const name = this.names[index] as string;
    return !HOP_BY_HOP.has(name) && (this.connection.length === 0 || !this.connection.includes(name));
  }

  /**
   * A head as the next hop gets it: `firstLine`, then `before` (whole lines), the end-to-end headers
   * (without `skip`, a lower-case name), `after`, and the blank line. One string, built as it goes.
   */
  serialize(firstLine: string, before: string, after: string, skip?: string): string {
    let head = `${firstLine}\r\n${before}`;
    const { headers, names } = this;
    for (let i = 0; i < headers.length; i++) {
      if (this.isEndToEnd(i) && names[i] !== skip) {
        const [name, value] = headers[i] as Header;
        head += `${name}: ${value}\r\n`;
      }
    }
    return `${head}${after}\r\n`;
  }

  /** A request body's framing; a request that could be read two ways is refused (no smuggling). */
  requestFraming(): Framing {
    const { transferEncoding } = this;
    const length = contentLengthOf(this.contentLength);
    if (transferEncoding !== undefined) {
      if (length !== undefined) {
        throw new MalformedMessage('both Transfer-Encoding and Content-Length');
      }
      if (trimOws(transferEncoding).toLowerCase() !== 'chunked') {
        throw new MalformedMessage('a Transfer-Encoding other than chunked');
      }
      return CHUNKED;
    }
    return length ? { kind: 'length', length } : NONE;
  }

  /** A response body's framing (RFC 9112 section 6.3). */
  responseFraming(requestMethod: string, status: number): Framing {
    if (requestMethod === 'HEAD' || status < 200 || status === 204 || status === 304) {
      return NONE;
    }
    const { transferEncoding } = this;
    if (transferEncoding !== undefined) {
      const last = transferEncoding.lastIndexOf(',');
      return trimOws(transferEncoding.slice(last + 1)).toLowerCase() === 'chunked' ? CHUNKED : CLOSE;
    }
    const length = contentLengthOf(this.contentLength);
    if (length === undefined) {
      return CLOSE;
    }
    return length === 0 ? NONE : { kind: 'length', length };
  }
}

/** Whether the sender of a message wants its connection kept open after it (RFC 9112 section 9.3). */
export function wantsKeepAlive(minor: number, headers: readonly Header[]): boolean {
  return new MessageFields(headers).keepsAlive(minor);
}

/** Headers without hop-by-hop ones, and without those the Connection header names. */
export function endToEndHeaders(headers: readonly Header[]): Header[] {
  const fields = new MessageFields(headers);
  return headers.filter((_, index) => fields.isEndToEnd(index));
}

/** How a body's end is known. */
export type Framing =
  | { kind: 'none' }
  | { kind: 'length'; length: number }
  | { kind: 'chunked' }
  | { kind: 'close' };

const NONE: Framing = { kind: 'none' };
const CHUNKED: Framing = { kind: 'chunked' };
const CLOSE: Framing = { kind: 'close' };

const DIGITS = /^\d{1,15}$/;

function contentLengthOf(value: string | undefined): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  let only: string | undefined = trimOws(value);
  if (only.includes(',')) {
    // "5, 5" (a repeated header) is one length; different lengths are an error.
    const values = new Set(value.split(',').map((part) => trimOws(part)));
    only = values.size === 1 ? [...values][0] : undefined;
  }
  if (only === undefined || !DIGITS.test(only)) {
    throw new MalformedMessage('an invalid Content-Length');
  }
  return Number(only);
}

/** A request body's framing; a request that could be read two ways is refused (no smuggling). */
export function requestFraming(headers: readonly Header[]): Framing {
  return new MessageFields(headers).requestFraming();
}

/** A response body's framing (RFC 9112 section 6.3). */
export function responseFraming(requestMethod: string, head: ResponseHead): Framing {
  return new MessageFields(head.headers).responseFraming(requestMethod, head.status);
}

/**
 * An absolute-form http (or ws) target split into host, port and origin-form path; null when it is not
 * one. `ws://` is `http://` on the wire (RFC 6455 3: the same default port 80, the same request, the
 * Upgrade its headers ask for), so it is read the same way. `https://`, `wss://` and other schemes answer
 * their scheme so the caller can say what to use instead.
 */
export function splitAbsoluteUrl(
  target: string,
): { host: string; port: number; authority: string; path: string } | { scheme: string } | null {
  const schemeEnd = target.indexOf('://');
  if (schemeEnd <= 0) {
    return null;
  }
  const scheme = target.slice(0, schemeEnd).toLowerCase();
  if (scheme !== 'http' && scheme !== 'ws') {
    return { scheme };
  }
  const rest = target.slice(schemeEnd + 3);
  let authorityEnd = rest.length;
  for (const stop of ['/', '?', '#']) {
    const at = rest.indexOf(stop);
    if (at !== -1 && at < authorityEnd) {
      authorityEnd = at;
    }
  }
  let authority = rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at !== -1) {
    authority = authority.slice(at + 1);
  }
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^\s:[\]]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!match?.[1]) {
    return null;
  }
  const port = match[2] === undefined || match[2] === '' ? 80 : Number(match[2]);
  if (port < 1 || port > 65535) {
    return null;
  }
  let path = rest.slice(authorityEnd);
  const hash = path.indexOf('#');
  if (hash !== -1) {
    path = path.slice(0, hash);
  }
  if (path === '' || path[0] === '?') {
    path = `/${path}`;
  }
  return { host: match[1].toLowerCase(), port, authority, path };
}
