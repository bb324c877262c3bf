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

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

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

function parseHeaders(lines: string[]): Header[] {
  const headers: Header[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') {
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) {
      throw new MalformedMessage('a header line without a name');
    }
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) {
      // Also refuses obsolete line folding and "Name : value", both smuggling vectors.
      throw new MalformedMessage('a header name that is not a token');
    }
    const value = trimOws(line.slice(colon + 1));
    if (/[\r\n\0]/.test(value)) {
      // A bare CR or LF could end the line for the next hop and smuggle a header past us (RFC 9110 5.5).
      throw new MalformedMessage('a header value with CR, LF or NUL');
    }
    headers.push([name, value]);
  }
  return headers;
}

function headLines(buffer: Buffer, end: number): string[] {
  // latin1 keeps every byte as one char, so lengths and offsets stay byte-exact.
  return buffer.toString('latin1', 0, end - 4).split('\r\n');
}

// The target: no space, no control byte (a NUL or a DEL would reach the target's request line).
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([!-~\x80-\xff]+) HTTP\/1\.([01])$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/;

export function parseRequestHead(buffer: Buffer, end: number): RequestHead {
  const lines = headLines(buffer, end);
  const match = REQUEST_LINE.exec(lines[0] ?? '');
  if (!match) {
    throw new MalformedMessage('not an HTTP/1.x request line');
  }
  return {
    method: match[1] as string,
    target: match[2] as string,
    minor: Number(match[3]),
    headers: parseHeaders(lines),
  };
}

export function parseResponseHead(buffer: Buffer, end: number): ResponseHead {
  const lines = headLines(buffer, end);
  const match = STATUS_LINE.exec(lines[0] ?? '');
  if (!match) {
    throw new MalformedMessage('not an HTTP/1.x status line');
  }
  return {
    minor: Number(match[1]),
    status: Number(match[2]),
    reason: match[3] ?? '',
    headers: parseHeaders(lines),
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

function hasToken(value: string | undefined, token: string): boolean {
  return (
    value
      ?.toLowerCase()
      .split(',')
      .some((part) => trimOws(part) === token) ?? false
  );
}

/** Whether the sender of a message wants its connection kept open after it (RFC 9112 section 9.3). */
export function wantsKeepAlive(minor: number, headers: readonly Header[]): boolean {
  const connection = headerValue(headers, 'connection');
  return minor === 1 ? !hasToken(connection, 'close') : hasToken(connection, 'keep-alive');
}

/**
 * The protocol a request asks to switch to (`Connection: Upgrade` with `Upgrade: websocket`, say), or
 * undefined. Such a request is forwarded with its Upgrade, and a 101 answer turns the connection into a tunnel.
 */
export function requestedUpgrade(headers: readonly Header[]): string | undefined {
  return hasToken(headerValue(headers, 'connection'), 'upgrade')
    ? headerValue(headers, 'upgrade')
    : undefined;
}

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

/** Headers without hop-by-hop ones, and without those the Connection header names. */
export function endToEndHeaders(headers: readonly Header[]): Header[] {
  const named = headerValue(headers, 'connection')
    ?.toLowerCase()
    .split(',')
    .map((part) => trimOws(part));
  return headers.filter(([name]) => {
    const lower = name.toLowerCase();
    return !HOP_BY_HOP.has(lower) && !named?.includes(lower);
  });
}

export function serializeHead(firstLine: string, headers: readonly Header[], extra?: string): string {
  let head = `${firstLine}\r\n`;
  for (const [name, value] of headers) {
    head += `${name}: ${value}\r\n`;
  }
  return `${head}${extra ?? ''}\r\n`;
}

/** How a body's end is known. */
export type Framing =
  | { kind: 'none' }
  | { kind: 'length'; length: number }
  | { kind: 'chunked' }
  | { kind: 'close' };

function contentLength(headers: readonly Header[]): number | undefined {
  const value = headerValue(headers, 'content-length');
  if (value === undefined) {
    return undefined;
  }
  // "5, 5" (a repeated header) is one length; different lengths are an error.
  const values = new Set(value.split(',').map((part) => trimOws(part)));
  const only = values.size === 1 ? [...values][0] : undefined;
  if (only === undefined || !/^\d{1,15}$/.test(only)) {
    throw new MalformedMessage('an invalid Content-Length');
  }
  return Number(only);
}

/** A request body's framing; a request that could be read two ways is refused (no smuggling). */
export function requestFraming(headers: readonly Header[]): Framing {
  const transferEncoding = headerValue(headers, 'transfer-encoding');
  const length = contentLength(headers);
  if (transferEncoding !== undefined) {
    if (length !== undefined) {
      throw new MalformedMessage('both Transfer-Encoding and Content-Length');
    }
    if (trimOws(transferEncoding).toLowerCase() !== 'chunked') {
      throw new MalformedMessage('a Transfer-Encoding other than chunked');
    }
    return { kind: 'chunked' };
  }
  return length ? { kind: 'length', length } : { kind: 'none' };
}

/** A response body's framing (RFC 9112 section 6.3). */
export function responseFraming(requestMethod: string, head: ResponseHead): Framing {
  if (requestMethod === 'HEAD' || head.status < 200 || head.status === 204 || head.status === 304) {
    return { kind: 'none' };
  }
  const transferEncoding = headerValue(head.headers, 'transfer-encoding');
  if (transferEncoding !== undefined) {
    const codings = transferEncoding.toLowerCase().split(',');
    return trimOws(codings[codings.length - 1] ?? '') === 'chunked' ? { kind: 'chunked' } : { kind: 'close' };
  }
  const length = contentLength(head.headers);
  if (length === undefined) {
    return { kind: 'close' };
  }
  return length === 0 ? { kind: 'none' } : { kind: 'length', length };
}

enum Chunk {
  Size,
  Extension,
  SizeLf,
  Data,
  DataCr,
  DataLf,
  TrailerStart,
  TrailerLine,
  TrailerLf,
  EndLf,
  Done,
}

/**
 * Follows a body through the bytes that carry it and says where it ends. `take(chunk, offset)` answers
 * how many bytes from `offset` belong to the body; `done` turns true at its last byte.
 */
export class BodyTracker {
  done: boolean;
  private left: number;
  private state = Chunk.Size;
  private sizeDigits = 0;

  constructor(private readonly framing: Framing) {
    this.done = framing.kind === 'none';
    this.left = framing.kind === 'length' ? framing.length : 0;
  }

  /** The body ends when its connection does. */
  get isCloseDelimited(): boolean {
    return this.framing.kind === 'close';
  }

  take(chunk: Buffer, offset = 0): number {
    const available = chunk.length - offset;
    if (this.done || available <= 0) {
      return 0;
    }
    switch (this.framing.kind) {
      case 'length': {
        const used = Math.min(this.left, available);
        this.left -= used;
        this.done = this.left === 0;
        return used;
      }
      case 'close':
        return available;
      case 'chunked':
        return this.takeChunked(chunk, offset);
      default:
        return 0;
    }
  }

  private takeChunked(chunk: Buffer, offset: number): number {
    let i = offset;
    while (i < chunk.length && this.state !== Chunk.Done) {
      if (this.state === Chunk.Data) {
        const used = Math.min(this.left, chunk.length - i);
        this.left -= used;
        i += used;
        if (this.left === 0) {
          this.state = Chunk.DataCr;
        }
        continue;
      }
      const byte = chunk[i] as number;
      i += 1;
      switch (this.state) {
        case Chunk.Size: {
          const digit = hexValue(byte);
          if (digit >= 0) {
            if (this.sizeDigits >= 12) {
              throw new MalformedMessage('a chunk size too large');
            }
            this.left = this.left * 16 + digit;
            this.sizeDigits += 1;
          } else if (this.sizeDigits > 0 && (byte === 0x3b || byte === 0x20 || byte === 0x09)) {
            this.state = Chunk.Extension;
          } else if (this.sizeDigits > 0 && byte === 0x0d) {
            this.state = Chunk.SizeLf;
          } else {
            throw new MalformedMessage('an invalid chunk size');
          }
          break;
        }
        case Chunk.Extension:
          if (byte === 0x0d) {
            this.state = Chunk.SizeLf;
          }
          break;
        case Chunk.SizeLf:
          expect(byte, 0x0a);
          this.state = this.left === 0 ? Chunk.TrailerStart : Chunk.Data;
          break;
        case Chunk.DataCr:
          expect(byte, 0x0d);
          this.state = Chunk.DataLf;
          break;
        case Chunk.DataLf:
          expect(byte, 0x0a);
          this.state = Chunk.Size;
          this.sizeDigits = 0;
          break;
        case Chunk.TrailerStart:
          this.state = byte === 0x0d ? Chunk.EndLf : Chunk.TrailerLine;
          break;
        case Chunk.TrailerLine:
          if (byte === 0x0d) {
            this.state = Chunk.TrailerLf;
          }
          break;
        case Chunk.TrailerLf:
          expect(byte, 0x0a);
          this.state = Chunk.TrailerStart;
          break;
        case Chunk.EndLf:
          expect(byte, 0x0a);
          this.state = Chunk.Done;
          this.done = true;
          break;
      }
    }
    return i - offset;
  }
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) {
    return byte - 0x30;
  }
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function expect(byte: number, wanted: number): void {
  if (byte !== wanted) {
    throw new MalformedMessage('broken chunked framing');
  }
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
