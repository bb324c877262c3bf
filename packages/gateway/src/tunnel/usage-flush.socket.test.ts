import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.ts';
import { InMemoryGatewayStore, type PlanAccess, type UsageFlush } from '../store.ts';
import { curl } from '../testing/sockets.ts';
import type { GatewayLog } from './usage-flush.ts';

const TRAFFIC_BYTES = 10 * 1024 ** 3;

/** How the store's next flushes go wrong: unreachable (nothing stored), or stored with the answer lost. */
type Failure = 'unreachable' | 'answer-lost';

/** The in-memory store, with a database's ways of failing a flush. */
class FailingStore extends InMemoryGatewayStore {
  readonly failures: Failure[] = [];
  /** The store cannot even say whether a flush was stored. */
  isUnreachable = false;

  override async flushUsage(flush: UsageFlush): Promise<void> {
    const failure = this.failures.shift();
    if (failure === 'unreachable') {
      throw new Error('the store is unreachable');
    }
    if (failure === 'answer-lost') {
      // Stored (the COMMIT reached the database), but its answer never came back.
      this.recordFlush(flush);
      throw new Error('the answer to COMMIT was lost');
    }
    await super.flushUsage(flush);
  }

  override async wasUsageFlushed(flushId: string): Promise<boolean> {
    if (this.isUnreachable) {
      throw new Error('the store is unreachable');
    }
    return super.wasUsageFlushed(flushId);
  }
}

let origin: Server;
let originPort: number;
let gateway: Gateway;
let proxyPort: number;
let store: FailingStore;
let plan: PlanAccess;
let reported: string[];

const log: GatewayLog = {
  warn: (_details, message) => reported.push(`warn: ${message}`),
  error: (_details, message) => reported.push(`error: ${message}`),
};

async function startGateway(usageFlushEveryMs?: number): Promise<void> {
  plan = {
    planId: 'plan-flush',
    login: 'bgflushtest1',
    password: 'Secret123',
    poolType: 'datacenter',
    threadLimit: 5,
    trafficLeftBytes: TRAFFIC_BYTES,
    isActive: true,
  };
  store = new FailingStore().addPlan(plan).addExit({
    id: 'local',
    kind: 'direct',
    poolType: 'datacenter',
    country: 'US',
    isRisky: false,
  });
  reported = [];
  gateway = createGateway(store, {
    host: '127.0.0.1',
    httpPort: 0,
    allowPrivateTargets: true,
    openPorts: new Set([originPort]),
    usageFlushEveryMs,
    log,
  });
  proxyPort = (await gateway.listen()).httpPort;
}

/** One download through the gateway; answers the bytes curl sent and received (what is billed). */
async function download(bytes: number): Promise<number> {
  const result = await curl([
    '-x',
    `http://${plan.login}:${plan.password}@127.0.0.1:${proxyPort}`,
    `http://127.0.0.1:${originPort}/?bytes=${bytes}`,
  ]);
  expect(result.status).toBe(200);
  return result.sentBytes + result.receivedBytes;
}

beforeAll(async () => {
  origin = createServer((request, response) => {
    const size = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('bytes') ?? 0);
    response.end(Buffer.alloc(size, 97));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
});

afterEach(async () => {
  await gateway?.close();
});

afterAll(async () => {
  await new Promise((resolve) => origin?.close(resolve));
});

describe('flushing metered usage to the store', () => {
  it('loses nothing while the store is unreachable, and then delivers all of it exactly once', async () => {
    await startGateway();
    const first = await download(20_000);

    // The flush fails: its usage goes back into the meter, still counted against the plan.
    store.failures.push('unreachable');
    await gateway.flushUsage();
    expect(store.flushed.get(plan.planId)).toBeUndefined();
    expect(gateway.meter.pendingBilledBytes(plan.planId)).toBe(first);
    expect(plan.trafficLeftBytes).toBe(TRAFFIC_BYTES);

    // Still unreachable: the store cannot say whether that flush was stored, so nothing is sent.
    store.isUnreachable = true;
    const second = await download(30_000);
    await gateway.flushUsage();
    expect(store.flushed.get(plan.planId)).toBeUndefined();
    expect(gateway.meter.pendingBilledBytes(plan.planId)).toBe(first + second);
    expect(reported).toEqual([
      'error: gateway metering flush failed; retrying next second',
      'warn: gateway metering waits for the database; usage is kept in memory',
    ]);

    // Back: both downloads are stored once, and the plan's traffic left counts them instead of the meter.
    store.isUnreachable = false;
    await gateway.flushUsage();
    expect(store.flushed.get(plan.planId)).toMatchObject({ bytes: first + second, requests: 2, errors: 0 });
    expect(gateway.meter.pendingBilledBytes(plan.planId)).toBe(0);
    expect(plan.trafficLeftBytes).toBe(TRAFFIC_BYTES - first - second);
  });

  it('does not bill twice a flush that was stored but whose answer was lost', async () => {
    await startGateway();
    const first = await download(50_000);

    store.failures.push('answer-lost');
    await gateway.flushUsage();
    // Stored, but the engine cannot know: the usage is back in the meter, the plan not yet lowered.
    expect(store.flushed.get(plan.planId)?.bytes).toBe(first);
    expect(gateway.meter.pendingBilledBytes(plan.planId)).toBe(first);

    // The next flush learns it was stored and takes it back out of the meter before draining.
    const second = await download(10_000);
    await gateway.flushUsage();
    expect(store.flushed.get(plan.planId)).toMatchObject({ bytes: first + second, requests: 2 });
    expect(gateway.meter.pendingBilledBytes(plan.planId)).toBe(0);
    expect(plan.trafficLeftBytes).toBe(TRAFFIC_BYTES - first - second);
  });

  it('flushes on its own every interval, and what is left when the gateway closes', async () => {
    await startGateway(50);
    const first = await download(40_000);
    await expect.poll(() => store.flushed.get(plan.planId)?.bytes).toBe(first);

    store.failures.push('unreachable');
    await expect.poll(() => reported).toEqual(['error: gateway metering flush failed; retrying next second']);
    const second = await download(40_000);
    await gateway.close();
    expect(store.flushed.get(plan.planId)?.bytes).toBe(first + second);
    expect(plan.trafficLeftBytes).toBe(TRAFFIC_BYTES - first - second);
  });
});
