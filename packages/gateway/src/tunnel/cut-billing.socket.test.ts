import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess } from '../store.ts';

// A connection cut by the gateway (its plan used up, as a flush finds during a Redis outage) while its
// socket still queues what the client has not taken: what was queued never leaves, and is not billed.

const plan: PlanAccess = {
  planId: 'plan-cut',
  login: 'bgcutbill01',
  password: 'CutBill1234',
  poolType: 'datacenter',
  threadLimit: 10,
  trafficLeftBytes: 10 * 1024 ** 3,
  isActive: true,
};
const auth = Buffer.from(`${plan.login}:${plan.password}`).toString('base64');
const MiB = 1024 * 1024;

let origin: Server;
let originPort: number;
let gateway: Gateway;
let proxyPort: number;

beforeAll(async () => {
  // Sends 16 MiB to whoever connects, as fast as it is taken.
  origin = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(Buffer.alloc(16 * MiB, 7));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  const store = new InMemoryGatewayStore().addPlan({ ...plan }).addExit({
    id: 'us',
    kind: 'direct',
    poolType: 'datacenter',
    country: 'US',
    isRisky: false,
    localAddress: '127.0.0.2',
  });
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
  });
  proxyPort = (await gateway.listen()).httpPort;
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a connection the gateway cuts', () => {
  it('bills what reached the client, not what was still queued in its socket when cut', async () => {
    const client: Socket = connect(proxyPort, '127.0.0.1');
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.on('error', () => undefined);
    client.write(
      `CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
    );
    // The tunnel opens; then the client stops reading, and the gateway's socket to it fills and queues.
    await new Promise<void>((resolve) => client.once('data', () => resolve()));
    client.pause();
    await wait(300);
    expect(client.bytesRead).toBeLessThan(16 * MiB);
    // What a flush does to a plan it finds used up: billed so far, then closed.
    gateway.meter.sampleOpen();
    gateway.meter.closeWhere((planId) => planId === plan.planId);
    // The client now takes whatever did leave the gateway, until the close.
    client.on('data', () => undefined);
    client.resume();
    await closed;
    await wait(50);
    const carried = client.bytesRead + client.bytesWritten;
    expect(carried).toBeGreaterThan(0);
    expect(gateway.meter.drain().get(plan.planId)?.bytes).toBe(carried);
  });
});
