import { createHash, randomBytes } from 'node:crypto';
import {
  Agent,
  type ClientRequest,
  createServer as createHttpServer,
  type Server as HttpServer,
} from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';

// WebSocket over plain ws:// through the forward path (what `ws` with http-proxy-agent sends, and the
// `GET ws://host/path` of aiohttp and curl 8, read as http://): the request goes on with its Upgrade, a 101 turns both connections into a tunnel, a refusal is an
// ordinary answer on a connection that stays usable, and every byte is billed.

const plan: PlanAccess = {
  planId: 'plan-upgrade',
  login: 'bgupgrade001',
  password: 'Secret123',
  poolType: 'datacenter',
  threadLimit: 5,
  trafficLeftBytes: 1024 ** 3,
  isActive: true,
};
const auth = `Proxy-Authorization: Basic ${Buffer.from(`${plan.login}:${plan.password}`).toString('base64')}`;
const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

let target: Server;
let targetPort: number;
/** The request heads the target received, as text. */
const seenHeads: string[] = [];
let gateway: Gateway;
let proxyPort: number;
/** A real WebSocket server (the `ws` package) that echoes every message in upper case. */
let wsServer: HttpServer;
let wsPort: number;

/**
 * A target that answers plain requests with keep-alive, refuses an upgrade on /refuse with a 403, and
 * switches /chat to WebSocket: a 101 with the RFC 6455 accept key and a greeting in the same packet,
 * then an echo of every byte.
 */
function startTarget(): Promise<void> {
  target = createServer((socket) => {
    let buffered = Buffer.alloc(0);
    let upgraded = false;
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      if (upgraded) {
        socket.write(chunk);
        return;
      }
      buffered = Buffer.concat([buffered, chunk]);
      for (let end = buffered.indexOf('\r\n\r\n'); end !== -1; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.subarray(0, end).toString('latin1');
        buffered = buffered.subarray(end + 4);
        seenHeads.push(head);
        const path = head.split(' ')[1]?.split('?')[0];
        const key = /\r\nsec-websocket-key: (\S+)/i.exec(head)?.[1] ?? '';
        // /rogue switches whatever was asked: a broken target.
        if ((path === '/chat' && /\r\nupgrade: websocket/i.test(head)) || path === '/rogue') {
          const accept = createHash('sha1').update(`${key}${WEBSOCKET_GUID}`).digest('base64');
          socket.write(
            `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\nhello`,
          );
          upgraded = true;
          if (buffered.length > 0) {
            socket.write(buffered);
          }
          return;
        }
        const body = path === '/refuse' ? 'forbidden' : `plain ${path}`;
        const status = path === '/refuse' ? '403 Forbidden' : '200 OK';
        socket.write(`HTTP/1.1 ${status}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      }
    });
  });
  return new Promise((resolve) =>
    target.listen(0, '127.0.0.1', () => {
      targetPort = (target.address() as AddressInfo).port;
      resolve();
    }),
  );
}

function startWsServer(): Promise<void> {
  wsServer = createHttpServer();
  const sockets = new WebSocketServer({ server: wsServer });
  sockets.on('connection', (socket) => {
    socket.on('message', (data) => socket.send(data.toString().toUpperCase()));
  });
  return new Promise((resolve) =>
    wsServer.listen(0, '127.0.0.1', () => {
      wsPort = (wsServer.address() as AddressInfo).port;
      resolve();
    }),
  );
}

beforeAll(async () => {
  await startTarget();
  await startWsServer();
  const exit = { kind: 'direct', poolType: 'datacenter', country: 'DE', isRisky: false } as const;
  const store = new InMemoryGatewayStore()
    .addPlan(plan)
    .addExit({ ...exit, id: 'dc-2', localAddress: '127.0.0.2' });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([targetPort, wsPort]),
  });
  proxyPort = (await gateway.listen()).httpPort;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => target?.close(resolve));
  wsServer?.closeAllConnections();
  await new Promise((resolve) => wsServer?.close(resolve));
});

/** A raw client socket that collects what it receives and waits for a condition on it. */
function rawClient() {
  const socket = connect(proxyPort, '127.0.0.1');
  let received = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake?.();
  });
  socket.on('close', () => wake?.());
  return {
    socket,
    /** Waits until `length(received)` is at least `bytes`, or the socket closed; takes them out. */
    async take(bytes: number): Promise<Buffer> {
      while (received.length < bytes && !socket.destroyed) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      const taken = received.subarray(0, bytes);
      received = received.subarray(bytes);
      return taken;
    },
    async takeUntil(text: string): Promise<string> {
      for (;;) {
        const at = received.indexOf(text);
        if (at !== -1) {
          return (await this.take(at + text.length)).toString('latin1');
        }
        if (socket.destroyed) {
          throw new Error(`closed with ${JSON.stringify(received.toString('latin1'))}`);
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

const upgradeRequest = (path: string, key = randomBytes(16).toString('base64'), scheme = 'http') =>
  `GET ${scheme}://127.0.0.1:${targetPort}${path} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\n${auth}\r\n` +
  `Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\n\r\n`;

/**
 * An agent that sends each request to the gateway in absolute form with the ws:// scheme, as aiohttp and
 * curl 8 do for a ws:// URL through an HTTP proxy; keeps the sockets it opened for the byte count.
 */
class WsSchemeProxyAgent extends Agent {
  readonly sockets_: Socket[] = [];
  addRequest(request: ClientRequest, options: object): void {
    request.path = `ws://${request.host}:${wsPort}${request.path}`;
    request.setHeader('Proxy-Authorization', auth.slice('Proxy-Authorization: '.length));
    // @ts-expect-error Agent.addRequest is Node's (undocumented) hook, as the proxy agents use it.
    super.addRequest(request, options);
  }
  override createConnection(): Socket {
    const socket = connect(proxyPort, '127.0.0.1');
    this.sockets_.push(socket);
    return socket;
  }
}

describe('an Upgrade request on the forward path (WebSocket over ws://)', () => {
  it('switches to a tunnel on 101: the handshake arrives intact, bytes go both ways, and all of them are billed', async () => {
    gateway.meter.drain();
    const client = rawClient();
    const key = randomBytes(16).toString('base64');
    client.socket.write(upgradeRequest('/chat', key));
    const head = await client.takeUntil('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
    const accept = createHash('sha1').update(`${key}${WEBSOCKET_GUID}`).digest('base64');
    expect(head).toContain(`Sec-WebSocket-Accept: ${accept}`);
    expect(head).toContain('Upgrade: websocket');
    // What the target sent in the same packet as the 101 is not lost.
    expect((await client.take(5)).toString()).toBe('hello');
    // The target saw the upgrade, origin-form, without the proxy's credentials.
    const seen = seenHeads.at(-1) ?? '';
    expect(seen.split('\r\n')[0]).toBe('GET /chat HTTP/1.1');
    expect(seen).toMatch(/\r\nUpgrade: websocket/);
    expect(seen).toMatch(/\r\nConnection: Upgrade/);
    expect(seen).not.toMatch(/proxy-authorization/i);

    const payload = randomBytes(2 * 1024 * 1024);
    client.socket.write(payload);
    const echoed = await client.take(payload.length);
    expect(createHash('sha256').update(echoed).digest('hex')).toBe(
      createHash('sha256').update(payload).digest('hex'),
    );
    client.socket.end();
    await new Promise((resolve) => client.socket.once('close', resolve));
    const usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.bytes).toBe(client.socket.bytesWritten + client.socket.bytesRead);
    expect(usage?.requests).toBe(1);
  });

  it('passes a refused upgrade on as an answer, and the connection goes on with the next request', async () => {
    const client = rawClient();
    client.socket.write(upgradeRequest('/refuse'));
    const refusal = await client.takeUntil('forbidden');
    expect(refusal.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
    client.socket.write(`GET http://127.0.0.1:${targetPort}/after HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\n`);
    const next = await client.takeUntil('plain /after');
    expect(next.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    client.socket.destroy();
  });

  it('sends no Upgrade on without the Connection: upgrade token, and refuses a 101 nobody asked for', async () => {
    const client = rawClient();
    client.socket.write(
      `GET http://127.0.0.1:${targetPort}/chat HTTP/1.1\r\nHost: x\r\n${auth}\r\nUpgrade: websocket\r\nSec-WebSocket-Key: eA==\r\n\r\n`,
    );
    const answer = await client.takeUntil('plain /chat');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(seenHeads.at(-1)).not.toMatch(/\r\nupgrade:/i);
    client.socket.destroy();

    const rogue = rawClient();
    rogue.socket.write(`GET http://127.0.0.1:${targetPort}/rogue HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\n`);
    const refused = await rogue.takeUntil('\r\n\r\n');
    expect(refused.split('\r\n')[0]).toBe('HTTP/1.1 502 NO_HOST_CONNECTION');
    rogue.socket.destroy();
  });

  it('takes ws:// in absolute form as http://: switched, origin-form, and billed to the byte', async () => {
    gateway.meter.drain();
    const client = rawClient();
    const key = randomBytes(16).toString('base64');
    client.socket.write(upgradeRequest('/chat?room=1', key, 'ws'));
    const head = await client.takeUntil('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
    expect(head).toContain(
      `Sec-WebSocket-Accept: ${createHash('sha1').update(`${key}${WEBSOCKET_GUID}`).digest('base64')}`,
    );
    expect((await client.take(5)).toString()).toBe('hello');
    const seen = seenHeads.at(-1) ?? '';
    expect(seen.split('\r\n')[0]).toBe('GET /chat?room=1 HTTP/1.1');
    expect(seen).toContain(`\r\nHost: 127.0.0.1:${targetPort}`);
    expect(seen).toMatch(/\r\nUpgrade: websocket/);
    client.socket.write('over ws://');
    expect((await client.take(10)).toString()).toBe('over ws://');
    client.socket.end();
    await new Promise((resolve) => client.socket.once('close', resolve));
    const usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.bytes).toBe(client.socket.bytesWritten + client.socket.bytesRead);
    expect(usage?.requests).toBe(1);
  });

  it('relays a real WebSocket origin to the ws package sending ws:// in absolute form, billed as carried', async () => {
    gateway.meter.drain();
    const agent = new WsSchemeProxyAgent();
    const socket = new WebSocket(`ws://127.0.0.1:${wsPort}/echo`, { agent });
    const replies: string[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('open', () => socket.send('x'.repeat(100_000)));
      socket.on('message', (data) => {
        replies.push(data.toString());
        resolve();
      });
    });
    expect(replies).toEqual(['X'.repeat(100_000)]);
    socket.close();
    await new Promise((resolve) => socket.once('close', resolve));
    const [wire] = agent.sockets_;
    if (!wire?.closed) {
      await new Promise((resolve) => wire?.once('close', resolve));
    }
    expect(agent.sockets_).toHaveLength(1);
    const usage = gateway.meter.drain().get(plan.planId);
    expect(usage?.bytes).toBe((wire?.bytesWritten ?? 0) + (wire?.bytesRead ?? 0));
    expect(usage?.requests).toBe(1);
  });

  it('still refuses wss:// in absolute form (it needs CONNECT), saying so', async () => {
    const client = rawClient();
    client.socket.write(upgradeRequest('/chat', undefined, 'wss'));
    const refusal = await client.takeUntil('\r\n\r\n');
    expect(refusal.split('\r\n')[0]).toBe('HTTP/1.1 400 BAD_REQUEST');
    expect(await client.takeUntil('\n')).toContain('Use CONNECT for https and wss');
    client.socket.destroy();
  });

  it.each([
    ['http-proxy-agent (the forward path, this feature)', 'forward'],
    ['https-proxy-agent (a CONNECT tunnel)', 'connect'],
  ])('lets the ws package talk through %s', async (_, path) => {
    const proxy = `http://${plan.login}:${plan.password}@127.0.0.1:${proxyPort}`;
    const agent = path === 'forward' ? new HttpProxyAgent(proxy) : new HttpsProxyAgent(proxy);
    const socket = new WebSocket(`ws://127.0.0.1:${wsPort}/echo`, { agent });
    const replies: string[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('open', () => {
        socket.send('ping');
        socket.send('bytegate');
      });
      socket.on('message', (data) => {
        replies.push(data.toString());
        if (replies.length === 2) {
          resolve();
        }
      });
    });
    expect(replies).toEqual(['PING', 'BYTEGATE']);
    socket.close();
    await new Promise((resolve) => socket.once('close', resolve));
  });
});
