import { createHash } from 'node:crypto';
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  request as httpRequest,
} from 'node:http';
import { type AddressInfo, connect, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';
import type { TrafficAllowance } from './traffic-allowance.ts';

// A fleet's traffic arrives in slices drawn from a shared store: when a connection has spent what this
// gateway holds, its relays hold the bytes they read and stop reading until the next slice lands, in both
// directions, and never lose, reorder or bill a byte twice. When the plan's traffic is really gone, the
// tunnel ends at that byte.

/**
 * Traffic handed out only in slices that "arrive" a few milliseconds after they are asked for, as a
 * draw from Redis does, out of a budget of `totalBytes`: the same interface the fleet implements.
 */
class SlicedAllowance implements TrafficAllowance {
  private available = 0;
  private granted = 0;
  private drawing: Promise<void> | null = null;
  waits = 0;

  constructor(
    private budget: number,
    private readonly sliceBytes: number,
  ) {}

  take(_planId: string, wanted: number): number {
    const grant = Math.min(wanted, this.available);
    this.available -= grant;
    this.granted += grant;
    return grant;
  }

  release(_planId: string, bytes: number): void {
    this.granted -= bytes;
  }

  giveBack(_planId: string, bytes: number): void {
    this.granted -= bytes;
    this.available += bytes;
  }

  outstanding(): number {
    return this.granted;
  }

  /**
   * As the fleet's: a new connection starts with a slice drawn, unless `isDryAtAnswer` (other connections
   * took the reserve between the admission and the answer, as under load, so the first bytes wait).
   */
  isDryAtAnswer = false;

  async prepare(): Promise<boolean> {
    if (this.isDryAtAnswer) {
      return true;
    }
    if (this.available === 0) {
      await this.whenAvailable();
    }
    return this.available > 0;
  }

  whenAvailable(): Promise<void> | null {
    if (this.drawing) {
      return this.drawing;
    }
    if (this.budget <= 0) {
      return null;
    }
    this.waits += 1;
    this.drawing = new Promise<void>((resolve) =>
      setTimeout(() => {
        const slice = Math.min(this.sliceBytes, this.budget);
        this.budget -= slice;
        this.available += slice;
        this.drawing = null;
        resolve();
      }, 3),
    );
    return this.drawing;
  }
}

const plan: PlanAccess = {
  planId: 'plan-sliced',
  login: 'bgsliced01',
  password: 'Sliced1234',
  poolType: 'datacenter',
  threadLimit: 10,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const auth = Buffer.from(`${plan.login}:${plan.password}`).toString('base64');
const MiB = 1024 * 1024;

let origin: Server;
let originPort: number;
/** An HTTP origin answering every request with DOWNLOAD (Content-Length), for forward requests. */
let httpOrigin: HttpServer;
let httpOriginPort: number;

/** `size` bytes of a pattern that a lost, repeated or reordered slice would break. */
function patterned(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) {
    bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  }
  return bytes;
}
const DOWNLOAD = patterned(6 * MiB);
const UPLOAD = patterned(3 * MiB).reverse();

beforeAll(async () => {
  // Sends DOWNLOAD at once, and the hash of what it received once that is UPLOAD's length.
  origin = createServer((socket) => {
    const hash = createHash('sha256');
    let received = 0;
    socket.on('error', () => socket.destroy());
    socket.write(DOWNLOAD);
    socket.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      received += chunk.length;
      if (received === UPLOAD.length) {
        socket.write(hash.digest('hex'));
      }
    });
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  // A POST is answered with the hash of its body once it came whole.
  httpOrigin = createHttpServer((request, response) => {
    if (request.method === 'POST') {
      const hash = createHash('sha256');
      request.on('data', (chunk: Buffer) => hash.update(chunk));
      request.on('end', () => response.end(hash.digest('hex')));
      return;
    }
    response.setHeader('content-length', DOWNLOAD.length);
    response.end(DOWNLOAD);
  });
  await new Promise<void>((resolve) => httpOrigin.listen(0, '127.0.0.1', resolve));
  httpOriginPort = (httpOrigin.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => origin?.close(resolve));
  await new Promise((resolve) => httpOrigin?.close(resolve));
});

/** The gateway's debug lines (refusals, cut answers). */
let debugLines: string[] = [];
const log = {
  warn: () => undefined,
  error: () => undefined,
  debug: (_details: Record<string, unknown>, message: string) => debugLines.push(message),
};

async function startGateway(allowance: SlicedAllowance): Promise<{ gateway: Gateway; port: number }> {
  debugLines = [];
  const store = new InMemoryGatewayStore().addPlan({ ...plan }).addExit({
    id: 'us',
    kind: 'direct',
    poolType: 'datacenter',
    country: 'US',
    isRisky: false,
    localAddress: '127.0.0.2',
  });
  const gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort, httpOriginPort]),
    shared: { allowance: () => allowance },
    log,
  });
  return { gateway, port: (await gateway.listen()).httpPort };
}

/**
 * A CONNECT tunnel that uploads `upload` and collects what it gets until `expected` bytes came (then it
 * closes) or the gateway closes it.
 */
function tunnel(
  port: number,
  upload: Buffer,
  expected = Number.POSITIVE_INFINITY,
): Promise<{ received: Buffer; carried: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.write(
      `CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
    );
    const chunks: Buffer[] = [];
    let isOpen = false;
    let head = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      if (isOpen) {
        chunks.push(chunk);
        if (chunks.reduce((sum, one) => sum + one.length, 0) >= expected) {
          socket.end();
        }
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end !== -1) {
        isOpen = true;
        chunks.push(head.subarray(end + 4));
        socket.write(upload);
      }
    });
    socket.once('close', () =>
      resolve({ received: Buffer.concat(chunks), carried: socket.bytesRead + socket.bytesWritten }),
    );
  });
}

/**
 * A forward GET (or a POST of `upload`) through the gateway: the status, the body as far as it came,
 * and whether it came whole. A connection closed with no answer rejects ("socket hang up").
 */
function forwardGet(
  port: number,
  upload?: Buffer,
): Promise<{ status: number | undefined; body: Buffer; isComplete: boolean; carried: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      method: upload ? 'POST' : 'GET',
      path: `http://127.0.0.1:${httpOriginPort}/`,
      agent: false,
      headers: { 'proxy-authorization': `Basic ${auth}`, connection: 'close' },
    });
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', () => undefined);
      response.once('close', () => {
        const socket = request.socket;
        resolve({
          status: response.statusCode,
          body: Buffer.concat(chunks),
          isComplete: response.complete,
          carried: (socket?.bytesRead ?? 0) + (socket?.bytesWritten ?? 0),
        });
      });
    });
    request.end(upload);
  });
}

describe('relays wait for traffic being drawn', () => {
  it('forward a large response slice by slice, whole and in order, billed exactly', async () => {
    const allowance = new SlicedAllowance(64 * MiB, 256 * 1024);
    const { gateway, port } = await startGateway(allowance);
    try {
      const { body, isComplete, carried } = await forwardGet(port);
      expect(isComplete).toBe(true);
      expect(body.equals(DOWNLOAD)).toBe(true);
      expect(allowance.waits).toBeGreaterThan(20);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(gateway.meter.drain().get(plan.planId)?.bytes).toBe(carried);
    } finally {
      await gateway.close();
    }
  });

  it('answer a forward request whose response head finds the reserve dry: the head waits for the draw', async () => {
    // Under load a connection admitted with traffic drawn finds it taken by the others when its answer
    // comes: the head waits for the next slice like any byte (it was closed with nothing said).
    const allowance = new SlicedAllowance(64 * MiB, 256 * 1024);
    allowance.isDryAtAnswer = true;
    const { gateway, port } = await startGateway(allowance);
    try {
      const { status, body, isComplete, carried } = await forwardGet(port);
      expect(status).toBe(200);
      expect(isComplete).toBe(true);
      expect(body.equals(DOWNLOAD)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(gateway.meter.drain().get(plan.planId)?.bytes).toBe(carried);
    } finally {
      await gateway.close();
    }
  });

  it('refuse with why a forward request whose plan has nothing left when its answer comes', async () => {
    const allowance = new SlicedAllowance(0, 256 * 1024);
    allowance.isDryAtAnswer = true;
    const { gateway, port } = await startGateway(allowance);
    try {
      const { status, body } = await forwardGet(port);
      expect(status).toBe(407);
      expect(body.toString()).toContain('The plan has no traffic left');
      expect(gateway.stats().refusals.TRAFFIC_EXHAUSTED).toBe(1);
      expect(debugLines).toEqual([
        'gateway refused a request: The plan has no traffic left; add GB in the dashboard',
      ]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const usage = gateway.meter.drain().get(plan.planId);
      expect(usage?.errorsByCode).toEqual({ TRAFFIC_EXHAUSTED: 1 });
    } finally {
      await gateway.close();
    }
  });

  it('send a forward request body slice by slice, whole and in order, waiting for each draw', async () => {
    const allowance = new SlicedAllowance(64 * MiB, 256 * 1024);
    const { gateway, port } = await startGateway(allowance);
    try {
      const { status, body } = await forwardGet(port, UPLOAD);
      expect(status).toBe(200);
      expect(body.toString()).toBe(createHash('sha256').update(UPLOAD).digest('hex'));
      // 3 MiB in 256 KiB slices.
      expect(allowance.waits).toBeGreaterThan(10);
    } finally {
      await gateway.close();
    }
  });

  it('cut a forward response at the last byte of the plan when no more can be drawn', async () => {
    const allowance = new SlicedAllowance(3 * MiB, 256 * 1024);
    const { gateway, port } = await startGateway(allowance);
    try {
      const { body, isComplete } = await forwardGet(port);
      expect(isComplete).toBe(false);
      expect(body.length).toBeLessThan(3 * MiB);
      expect(body.length).toBeGreaterThan(3 * MiB - 1024);
      expect(body.equals(DOWNLOAD.subarray(0, body.length))).toBe(true);
    } finally {
      await gateway.close();
    }
  });

  it('carry every byte in order both ways, slice by slice, and bill exactly what crossed', async () => {
    const allowance = new SlicedAllowance(64 * MiB, 256 * 1024);
    const { gateway, port } = await startGateway(allowance);
    try {
      const expectedHash = createHash('sha256').update(UPLOAD).digest('hex');
      const { received, carried } = await tunnel(port, UPLOAD, DOWNLOAD.length + expectedHash.length);
      expect(received.length).toBe(DOWNLOAD.length + expectedHash.length);
      expect(received.subarray(0, DOWNLOAD.length).equals(DOWNLOAD)).toBe(true);
      expect(received.subarray(DOWNLOAD.length).toString()).toBe(expectedHash);
      // Many waits: 9 MiB in 256 KiB slices.
      expect(allowance.waits).toBeGreaterThan(30);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const billed = gateway.meter.drain().get(plan.planId);
      expect(billed?.bytes).toBe(carried);
    } finally {
      await gateway.close();
    }
  });

  it('end the tunnel at the last byte of the plan when no more can be drawn', async () => {
    const allowance = new SlicedAllowance(2 * MiB, 256 * 1024);
    const { gateway, port } = await startGateway(allowance);
    try {
      const { received } = await tunnel(port, Buffer.alloc(0));
      // The relay carried the whole budget, slice by slice, and not a byte more.
      expect(received.length).toBe(2 * MiB);
      expect(received.equals(DOWNLOAD.subarray(0, received.length))).toBe(true);
    } finally {
      await gateway.close();
    }
  });
});
