import { describe, expect, it } from 'vitest';
import { BodyTracker } from './body-tracker.ts';
import {
  endToEndHeaders,
  type Framing,
  findHeadEnd,
  MalformedMessage,
  parseRequestHead,
  parseResponseHead,
  requestFraming,
  responseFraming,
  splitAbsoluteUrl,
  wantsKeepAlive,
} from './messages.ts';

const bytes = (text: string) => Buffer.from(text, 'latin1');

function request(text: string) {
  const buffer = bytes(text);
  return parseRequestHead(buffer, findHeadEnd(buffer));
}

/** Feeds a body in pieces of `step` bytes; answers how many bytes belonged to it and whether it ended. */
function track(framing: Framing, text: string, step: number) {
  const tracker = new BodyTracker(framing);
  const buffer = bytes(text);
  let used = 0;
  for (let at = 0; at < buffer.length && !tracker.done; at += step) {
    used += tracker.take(buffer.subarray(at, Math.min(buffer.length, at + step)));
  }
  return { used, done: tracker.done };
}

describe('HTTP/1.1 heads', () => {
  it('finds the end of a head, also when its blank line arrives split', () => {
    expect(findHeadEnd(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\nbody'))).toBe(27);
    expect(findHeadEnd(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r'))).toBe(-1);
    // Searching again from where the last search stopped still sees a CRLFCRLF that straddles it.
    expect(findHeadEnd(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'), 26)).toBe(27);
  });

  it('reads a request line and headers, values trimmed, names kept as sent', () => {
    const head = request('GET http://a.example/x?y=1 HTTP/1.1\r\nHost: a.example\r\nX-Thing:  v \r\n\r\n');
    expect(head).toEqual({
      method: 'GET',
      target: 'http://a.example/x?y=1',
      minor: 1,
      headers: [
        ['Host', 'a.example'],
        ['X-Thing', 'v'],
      ],
    });
  });

  it('refuses what is not HTTP/1.x, folded lines and names with spaces', () => {
    expect(() => request('GET / HTTP/2.0\r\n\r\n')).toThrow(MalformedMessage);
    expect(() => request('GET /\r\n\r\n')).toThrow(MalformedMessage);
    expect(() => request('GET / HTTP/1.1\r\nA: b\r\n  folded\r\n\r\n')).toThrow(MalformedMessage);
    expect(() => request('GET / HTTP/1.1\r\nContent-Length : 5\r\n\r\n')).toThrow(MalformedMessage);
    const status = bytes('HTTP/1.1 2000 OK\r\n\r\n');
    expect(() => parseResponseHead(status, findHeadEnd(status))).toThrow(MalformedMessage);
  });

  // Found by fuzzing (fuzz/corpus/http-head/found-*): a bare LF in a value would end the line for a
  // target that takes LF alone as a line end, smuggling a Transfer-Encoding the gateway never framed.
  it('refuses header values holding CR, LF or NUL, in requests and responses', () => {
    const smuggled =
      'GET http://a.example/ HTTP/1.1\r\nHost: a.example\r\nX: y\nTransfer-Encoding: chunked\r\n\r\n';
    expect(() => request(smuggled)).toThrow('a header value with CR, LF or NUL');
    expect(() => request('GET / HTTP/1.1\r\nX: a\rb\r\n\r\n')).toThrow(MalformedMessage);
    expect(() => request('CONNECT example.com:443 HTTP/1.1\r\nHost:\0example.com:443\r\n\r\n')).toThrow(
      MalformedMessage,
    );
    const response = bytes('HTTP/1.1 200 OK\r\nX: y\nContent-Length: 0\r\n\r\n');
    expect(() => parseResponseHead(response, findHeadEnd(response))).toThrow(MalformedMessage);
  });

  // Found by fuzzing: String.prototype.trim took a value's own 0xA0 byte (NBSP in latin1) as whitespace.
  it('trims only spaces and tabs around a value, and frames by what it forwards', () => {
    expect(request('GET / HTTP/1.0\r\nA:\xa0b\xa0\r\nC: \t\xa0 \r\n\r\n').headers).toEqual([
      ['A', '\xa0b\xa0'],
      ['C', '\xa0'],
    ]);
    expect(() => requestFraming([['Content-Length', '5\xa0']])).toThrow(MalformedMessage);
    expect(() => requestFraming([['Transfer-Encoding', 'chunked\xa0']])).toThrow(MalformedMessage);
    expect(requestFraming([['Transfer-Encoding', ' chunked\t']])).toEqual({ kind: 'chunked' });
  });

  // Found by fuzzing: \S let control bytes into the target, and so into the request line sent on.
  it('refuses a request target holding a control byte', () => {
    expect(() => request('GET \0http://127.0.0.1:8080/x HTTP/1.1\r\n\r\n')).toThrow(MalformedMessage);
    expect(() => request('GET http://a.example/\x01\x7f HTTP/1.1\r\n\r\n')).toThrow(MalformedMessage);
    expect(request('GET http://a.example/\xe2\x9c\x93 HTTP/1.1\r\n\r\n').target).toBe(
      'http://a.example/\xe2\x9c\x93',
    );
  });

  it('keeps connections alive by version and Connection header', () => {
    expect(wantsKeepAlive(1, [])).toBe(true);
    expect(wantsKeepAlive(1, [['Connection', 'Close']])).toBe(false);
    expect(wantsKeepAlive(0, [])).toBe(false);
    expect(wantsKeepAlive(0, [['connection', 'keep-alive']])).toBe(true);
  });

  it('drops hop-by-hop headers and those the Connection header names', () => {
    expect(
      endToEndHeaders([
        ['Host', 'a'],
        ['Proxy-Authorization', 'Basic x'],
        ['Connection', 'keep-alive, X-Secret'],
        ['x-secret', '1'],
        ['Keep-Alive', 'timeout=5'],
        ['Transfer-Encoding', 'chunked'],
        ['Accept', '*/*'],
      ]),
    ).toEqual([
      ['Host', 'a'],
      ['Transfer-Encoding', 'chunked'],
      ['Accept', '*/*'],
    ]);
  });
});

describe('body framing', () => {
  it('refuses requests that could be read two ways', () => {
    expect(() =>
      requestFraming([
        ['Content-Length', '5'],
        ['Transfer-Encoding', 'chunked'],
      ]),
    ).toThrow(MalformedMessage);
    expect(() =>
      requestFraming([
        ['Content-Length', '5'],
        ['Content-Length', '6'],
      ]),
    ).toThrow(MalformedMessage);
    expect(() => requestFraming([['Transfer-Encoding', 'gzip, chunked']])).toThrow(MalformedMessage);
    expect(() => requestFraming([['Content-Length', '-1']])).toThrow(MalformedMessage);
    expect(
      requestFraming([
        ['Content-Length', '5'],
        ['content-length', '5'],
      ]),
    ).toEqual({ kind: 'length', length: 5 });
    expect(requestFraming([])).toEqual({ kind: 'none' });
  });

  it('frames responses as RFC 9112 section 6.3 says', () => {
    const head = (status: number, headers: Array<[string, string]>) => ({
      status,
      reason: '',
      minor: 1,
      headers,
    });
    expect(responseFraming('HEAD', head(200, [['Content-Length', '10']]))).toEqual({ kind: 'none' });
    expect(responseFraming('GET', head(204, []))).toEqual({ kind: 'none' });
    expect(responseFraming('GET', head(304, [['Content-Length', '10']]))).toEqual({ kind: 'none' });
    expect(responseFraming('GET', head(100, []))).toEqual({ kind: 'none' });
    expect(responseFraming('GET', head(200, [['Transfer-Encoding', 'gzip, chunked']]))).toEqual({
      kind: 'chunked',
    });
    expect(responseFraming('GET', head(200, [['Transfer-Encoding', 'gzip']]))).toEqual({ kind: 'close' });
    expect(responseFraming('GET', head(200, []))).toEqual({ kind: 'close' });
    expect(responseFraming('GET', head(200, [['Content-Length', '0']]))).toEqual({ kind: 'none' });
  });

  it('counts a Content-Length body and leaves what follows it', () => {
    const tracker = new BodyTracker({ kind: 'length', length: 5 });
    expect(tracker.take(bytes('abc'))).toBe(3);
    expect(tracker.take(bytes('deGET / HTTP/1.1'))).toBe(2);
    expect(tracker.done).toBe(true);
    expect(tracker.take(bytes('more'))).toBe(0);
  });

  it('finds the end of a chunked body with extensions and trailers, however it is split', () => {
    const body = '5;name=v\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n';
    for (const step of [1, 2, 3, 7, 1000]) {
      expect(track({ kind: 'chunked' }, `${body}GET /next`, step), `step ${step}`).toEqual({
        used: body.length,
        done: true,
      });
    }
    expect(track({ kind: 'chunked' }, '0\r\n\r\n', 1)).toEqual({ used: 5, done: true });
    expect(track({ kind: 'chunked' }, '5\r\nhel', 2)).toEqual({ used: 6, done: false });
  });

  it('refuses broken chunked framing', () => {
    expect(() => track({ kind: 'chunked' }, 'zz\r\n', 1)).toThrow(MalformedMessage);
    expect(() => track({ kind: 'chunked' }, '\r\n', 1)).toThrow(MalformedMessage);
    expect(() => track({ kind: 'chunked' }, '3\r\nabcX\r\n', 1)).toThrow(MalformedMessage);
    expect(() => track({ kind: 'chunked' }, 'fffffffffffff\r\n', 1)).toThrow(MalformedMessage);
  });
});

describe('absolute-form targets', () => {
  it('splits host, port, authority and path', () => {
    expect(splitAbsoluteUrl('http://Example.com/a/b?c=1#frag')).toEqual({
      host: 'example.com',
      port: 80,
      authority: 'Example.com',
      path: '/a/b?c=1',
    });
    expect(splitAbsoluteUrl('http://127.0.0.1:8080')).toEqual({
      host: '127.0.0.1',
      port: 8080,
      authority: '127.0.0.1:8080',
      path: '/',
    });
    expect(splitAbsoluteUrl('http://[::1]:81?x')).toEqual({
      host: '[::1]',
      port: 81,
      authority: '[::1]:81',
      path: '/?x',
    });
    expect(splitAbsoluteUrl('http://user:pw@a.example/')).toMatchObject({
      host: 'a.example',
      authority: 'a.example',
    });
  });

  it('reads ws:// as http:// (default port 80, any case), and leaves wss:// to CONNECT', () => {
    expect(splitAbsoluteUrl('ws://Chat.example/socket?room=1')).toEqual({
      host: 'chat.example',
      port: 80,
      authority: 'Chat.example',
      path: '/socket?room=1',
    });
    expect(splitAbsoluteUrl('WS://127.0.0.1:9001')).toEqual({
      host: '127.0.0.1',
      port: 9001,
      authority: '127.0.0.1:9001',
      path: '/',
    });
    expect(splitAbsoluteUrl('wss://chat.example/')).toEqual({ scheme: 'wss' });
  });

  it('tells other schemes and non-URLs apart', () => {
    expect(splitAbsoluteUrl('https://a.example/')).toEqual({ scheme: 'https' });
    expect(splitAbsoluteUrl('/relative')).toBeNull();
    expect(splitAbsoluteUrl('http://a.example:0/')).toBeNull();
    expect(splitAbsoluteUrl('http://a.example:70000/')).toBeNull();
    expect(splitAbsoluteUrl('http:///path')).toBeNull();
  });
});
