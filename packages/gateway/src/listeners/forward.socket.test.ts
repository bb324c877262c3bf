import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import { run } from '../testing/sockets.ts';

// Forward (absolute-form) HTTP through the gateway's own HTTP/1.1 relay: kept-alive connections on both
// sides, pipelining, every body framing, 100-continue, the stale-connection retry, smuggling refused.

const plan: PlanAccess = {
  planId: 'plan-fw',
  login: 'bgforward01',
  password: 'Secret123',
  poolType: 'datacenter',
  threadLimit: 10,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const auth = `Proxy-Authorization: Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`;
/** A plan of its own for counting one connection's thread slot while other tests' connections come and go. */
const closingPlan: PlanAccess = { ...plan, planId: 'plan-fw-close', login: 'bgforward02' };

let origin: HttpServer;
let originPort: number;
/** Connections the origin accepted, and the headers of every request it got. */
let originConnections = 0;
const seenHeaders: Array<Record<string, string | string[] | undefined>> = [];
/** A raw origin for framings Node's server would not produce, and for a target that drops reused connections. */
let raw: Server;
let rawPort: number;
let gateway: Gateway;
let proxyPort: number;

beforeAll(async () => {
  origin = createHttpServer((request, response) => {
    seenHeaders.push(request.headers);
    if (request.url === '/echo-sha') {
      const hash = createHash('sha256');
      request.on('data', (chunk: Buffer) => hash.update(chunk));
      request.on('end', () => response.end(hash.digest('hex')));
      return;
    }
    response.setHeader('Keep-Alive', 'timeout=30');
    response.end(`path ${request.url}`);
  });
  origin.keepAliveTimeout = 30_000;
  origin.on('connection', () => {
    originConnections += 1;
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;

  raw = createServer((socket) => {
    let requests = 0;
    let buffered = '';
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) {
        return;
      }
      const path = buffered.split(' ')[1] ?? '';
      buffered = buffered.slice(end + 4);
      requests += 1;
      if (path === '/chunked') {
        socket.write(
          'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n' +
            '6;ext=1\r\nchunk1\r\n7\r\n-chunk2\r\n0\r\nX-Sum: 13\r\n\r\n',
        );
      } else if (path === '/until-close') {
        socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nread me until the end');
      } else if (path === '/slow-close') {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nread me ');
        setTimeout(() => socket.end('until the end'), 100);
      } else if (path === '/no-content') {
        socket.write('HTTP/1.1 204 No Content\r\nX-Empty: yes\r\n\r\n');
      } else if (path === '/once') {
        // Serves one request per connection and drops the connection when it is reused: what a
        // target's idle timeout firing just as the gateway reuses the connection looks like.
        if (requests > 1) {
          socket.destroy();
          return;
        }
        const from = socket.remoteAddress ?? '';
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${from.length}\r\n\r\n${from}`);
      }
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawPort = (raw.address() as AddressInfo).port;

  const exit = { kind: 'direct', poolType: 'datacenter', country: 'DE', isRisky: false } as const;
  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addPlan(closingPlan)
    .addExit({ ...exit, id: 'local-2', localAddress: '127.0.0.2' })
    .addExit({ ...exit, id: 'local-3', localAddress: '127.0.0.3' });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort, rawPort]),
  });
  proxyPort = (await gateway.listen()).httpPort;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
  await new Promise((resolve) => raw?.close(resolve));
});

/** A raw client connection that reads responses one by one (Content-Length, chunked or until close). */
class Client {
  readonly socket: Socket;
  private received = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | null = null;
  readonly sent: number[] = [];

  constructor() {
    this.socket = connect(proxyPort, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake?.();
    });
    this.socket.on('end', () => {
      this.ended = true;
      this.wake?.();
    });
  }

  send(text: string): void {
    this.socket.write(text);
  }

  get(target: string, extra = '', proxyAuthorization = auth): void {
    this.send(`GET ${target} HTTP/1.1\r\nHost: ignored.example\r\n${proxyAuthorization}\r\n${extra}\r\n`);
  }

  private async until(ready: () => number): Promise<string> {
    for (;;) {
      const length = ready();
      if (length >= 0) {
        const text = this.received.subarray(0, length).toString('latin1');
        this.received = this.received.subarray(length);
        return text;
      }
      if (this.ended) {
        throw new Error(`connection ended with ${JSON.stringify(this.received.toString('latin1'))}`);
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /** The next whole response as text. */
  response(): Promise<string> {
    return this.until(() => {
      const text = this.received.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd === -1) {
        return -1;
      }
      const head = text.slice(0, headEnd);
      const length = /\r\ncontent-length: (\d+)/i.exec(head);
      if (length) {
        const end = headEnd + 4 + Number(length[1]);
        return text.length >= end ? end : -1;
      }
      if (/\r\ntransfer-encoding: chunked/i.test(head)) {
        const end = text.indexOf('\r\n0\r\n', headEnd);
        const trailerEnd = end === -1 ? -1 : text.indexOf('\r\n\r\n', end + 2);
        return trailerEnd === -1 ? -1 : trailerEnd + 4;
      }
      if (/^HTTP\/1\.1 (204|304)/.test(head)) {
        return headEnd + 4;
      }
      return this.ended ? text.length : -1;
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

describe('forward HTTP through the HTTP/1.1 relay', () => {
  it('keeps one client and one target connection alive across requests, without hop-by-hop headers', async () => {
    const connectionsBefore = originConnections;
    const client = new Client();
    // A session keeps the exit (rotation would pick one per request, each with its own connections).
    const sticky = Buffer.from(`${plan.login}__sessid.keep1:${plan.password}`).toString('base64');
    for (const path of ['/a', '/b', '/c']) {
      client.get(
        `http://127.0.0.1:${originPort}${path}`,
        'Connection: keep-alive, X-Private\r\nX-Private: 1\r\n',
        `Proxy-Authorization: Basic ${sticky}`,
      );
      const response = await client.response();
      expect(response).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(response.endsWith(`path ${path}`)).toBe(true);
      // The origin's Keep-Alive and Connection describe its connection to the gateway, not the client's.
      expect(response).not.toMatch(/\r\nkeep-alive:/i);
      expect(response).not.toMatch(/\r\nconnection:/i);
    }
    client.close();
    expect(originConnections - connectionsBefore).toBe(1);
    const last = seenHeaders[seenHeaders.length - 1] ?? {};
    expect(last['proxy-authorization']).toBeUndefined();
    expect(last['x-private']).toBeUndefined();
    // RFC 9112 3.2.2: the Host of an absolute-form request is its authority.
    expect(last.host).toBe(`127.0.0.1:${originPort}`);
  });

  it('carries many requests on one kept-alive connection without piling up listeners', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const sticky = Buffer.from(`${plan.login}__sessid.many1:${plan.password}`).toString('base64');
    const client = new Client();
    for (let i = 0; i < 40; i++) {
      client.get(`http://127.0.0.1:${originPort}/n${i}`, '', `Proxy-Authorization: Basic ${sticky}`);
      expect((await client.response()).endsWith(`path /n${i}`)).toBe(true);
    }
    client.close();
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
  });

  it('answers pipelined requests in order', async () => {
    const client = new Client();
    const request = (path: string) =>
      `GET http://127.0.0.1:${originPort}${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\n`;
    client.send(request('/first') + request('/second') + request('/third'));
    expect((await client.response()).endsWith('path /first')).toBe(true);
    expect((await client.response()).endsWith('path /second')).toBe(true);
    expect((await client.response()).endsWith('path /third')).toBe(true);
    client.close();
  });

  it('passes chunked bodies with trailers, bodiless 204s and close-delimited bodies through intact', async () => {
    const client = new Client();
    client.get(`http://127.0.0.1:${rawPort}/chunked`);
    const chunked = await client.response();
    expect(chunked).toMatch(/\r\nTransfer-Encoding: chunked\r\n/);
    expect(chunked.endsWith('6;ext=1\r\nchunk1\r\n7\r\n-chunk2\r\n0\r\nX-Sum: 13\r\n\r\n')).toBe(true);
    client.get(`http://127.0.0.1:${rawPort}/no-content`);
    expect(await client.response()).toMatch(/^HTTP\/1\.1 204 No Content\r\nX-Empty: yes\r\n\r\n$/);
    client.get(`http://127.0.0.1:${rawPort}/until-close`);
    const untilClose = await client.response();
    // The body ends with the connection, so the client's connection ends too, and is told so.
    expect(untilClose).toMatch(/\r\nConnection: close\r\n/);
    expect(untilClose.endsWith('\r\n\r\nread me until the end')).toBe(true);
  });

  it('closes the connection after an answer that ends it, with a pipelined request behind, and frees its thread', async () => {
    const basic = Buffer.from(`${closingPlan.login}:${closingPlan.password}`).toString('base64');
    const client = new Client();
    const request = (path: string) =>
      `GET http://127.0.0.1:${rawPort}${path} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${basic}\r\n\r\n`;
    // A pipelined request pauses the client connection while the close-delimited answer streams, and
    // its last byte, arriving then, waits unread in the socket when the client's FIN comes behind it.
    const pipelined = request('/slow-close') + request('/no-content');
    client.send(pipelined.slice(0, -1));
    await new Promise((resolve) => client.socket.once('data', resolve));
    client.send(pipelined.slice(-1));
    expect((await client.response()).endsWith('read me until the end')).toBe(true);
    // The client answers the gateway's FIN with its own (allowHalfOpen is off): the gateway must read it.
    await new Promise((resolve) => client.socket.once('close', resolve));
    await expect.poll(() => gateway.threads.count(closingPlan.planId), { timeout: 3000 }).toBe(0);
  });

  it('counts each of two pipelined requests to different hosts under its own host', async () => {
    const basic = Buffer.from(`${closingPlan.login}:${closingPlan.password}`).toString('base64');
    gateway.meter.drain();
    const client = new Client();
    const request = (host: string, port: number, path: string) =>
      `GET http://${host}:${port}${path} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${basic}\r\n\r\n`;
    client.send(request('127.0.0.1', rawPort, '/no-content') + request('localhost', originPort, '/second'));
    expect(await client.response()).toMatch(/^HTTP\/1\.1 204 /);
    expect((await client.response()).endsWith('path /second')).toBe(true);
    client.close();
    const usage = gateway.meter.drain().get(closingPlan.planId);
    expect(usage?.hostRequests).toEqual({ '127.0.0.1': 1, localhost: 1 });
  });

  it('sends a request again on a fresh connection to the same exit when a kept-alive one was dropped as it was reused', async () => {
    const sticky = Buffer.from(`${plan.login}__sessid.stale1:${plan.password}`).toString('base64');
    const client = new Client();
    client.get(`http://127.0.0.1:${rawPort}/once`, '', `Proxy-Authorization: Basic ${sticky}`);
    const first = (await client.response()).split('\r\n\r\n')[1];
    client.get(`http://127.0.0.1:${rawPort}/once`, '', `Proxy-Authorization: Basic ${sticky}`);
    const second = (await client.response()).split('\r\n\r\n')[1];
    // The session keeps its exit: the retry is the keep-alive race, not a failed exit.
    expect(first).toMatch(/^127\.0\.0\.[23]$/);
    expect(second).toBe(first);
    client.close();
  });

  it('refuses a request that could be read two ways (request smuggling)', async () => {
    const client = new Client();
    client.send(
      `POST http://127.0.0.1:${originPort}/x HTTP/1.1\r\nHost: x\r\n${auth}\r\n` +
        'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    const response = await client.response();
    expect(response).toMatch(/^HTTP\/1\.1 400 BAD_REQUEST\r\n/);
    expect(response).toContain('both Transfer-Encoding and Content-Length');
  });

  it('carries a chunked upload and a 100-continue upload intact, and bills keep-alive requests exactly', async () => {
    gateway.meter.drain();
    const client = new Client();
    const body = randomBytes(300_000);
    const sha = createHash('sha256').update(body).digest('hex');
    // A chunked upload in three chunks.
    const chunks = [body.subarray(0, 1000), body.subarray(1000, 250_000), body.subarray(250_000)];
    client.send(
      `POST http://127.0.0.1:${originPort}/echo-sha HTTP/1.1\r\nHost: x\r\n${auth}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    for (const part of chunks) {
      client.socket.write(`${part.length.toString(16)}\r\n`);
      client.socket.write(part);
      client.socket.write('\r\n');
    }
    client.send('0\r\n\r\n');
    expect((await client.response()).endsWith(sha)).toBe(true);
    client.close();
    await new Promise((resolve) => client.socket.once('close', resolve));
    const usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.bytes).toBe(client.socket.bytesWritten + client.socket.bytesRead);
    expect(usage?.requests).toBe(1);

    // curl sends a large body with Expect: 100-continue and waits for the 100 to come back.
    const file = join(tmpdir(), `bytegate-upload-${process.pid}.bin`);
    writeFileSync(file, body);
    const { stdout, stderr } = await run('curl', [
      '-sv',
      '-x',
      `http://${plan.login}:${plan.password}@127.0.0.1:${proxyPort}`,
      '-H',
      'Expect: 100-continue',
      '--data-binary',
      `@${file}`,
      `http://127.0.0.1:${originPort}/echo-sha`,
    ]);
    expect(stderr).toContain('HTTP/1.1 100 Continue');
    expect(stdout).toBe(sha);
  });
});
