import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, waitForRedis } from '../../redis/redis-client.ts';
import type { PlanTrafficRow } from '../db-gateway-store.ts';
import { DEGRADED_CREDIT_BYTES } from './fleet-degraded.ts';
import { FleetMember } from './fleet-member.ts';
import { CREDIT_BYTES, FleetTrafficAllowance } from './fleet-traffic.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const MiB = 1024 * 1024;
const quiet = { warn() {}, info() {} };

// One gateway's share of a plan's traffic in Redis, against a real Redis: what the member answers for
// (its `m:<id>` figure) must be what it holds, whatever order its commands meet Redis in. The figures
// are absolute, so a write computed before a draw's grant was known and landing after the draw in
// Redis would drop the grant from the fleet's sum, and the other gateways could draw it a second time
// (the fleet suite's 50 MiB plan overdrawn by 10 MiB).
describe.runIf(redisUrl)('a gateway’s share of plan traffic in Redis', () => {
  let redis: Redis;
  const prefix = `test-${randomBytes(4).toString('hex')}:`;
  const planId = 'plan-1';
  const row: PlanTrafficRow = { totalBytes: 50 * MiB, usedBytes: 0, changedAt: Date.now() };
  // The last test's plan: figures of its own in Redis.
  const smallPlanId = 'plan-2';
  const smallRow: PlanTrafficRow = { totalBytes: 20 * MiB, usedBytes: 0, changedAt: Date.now() };
  // The busy test's plan.
  const busyPlanId = 'plan-3';
  const busyRow: PlanTrafficRow = { totalBytes: 30 * MiB, usedBytes: 0, changedAt: Date.now() };
  // The lowered plan's.
  const loweredPlanId = 'plan-4';
  const loweredRow: PlanTrafficRow = { totalBytes: 100 * MiB, usedBytes: 0, changedAt: Date.now() };
  // The outage test's.
  const outagePlanId = 'plan-5';
  const outageRow: PlanTrafficRow = { totalBytes: 64 * MiB, usedBytes: 0, changedAt: Date.now() };
  const rows = new Map([
    [outagePlanId, outageRow],
    [planId, row],
    [smallPlanId, smallRow],
    [busyPlanId, busyRow],
    [loweredPlanId, loweredRow],
  ]);
  let pending = 0;

  beforeAll(async () => {
    redis = createRedis(redisUrl ?? '', { commandTimeoutMs: 2000, autoPipelining: true });
    await waitForRedis(redis, 2000);
  });
  // Every member a test made leaves the fleet after it, whatever the test's outcome.
  const made: Array<{ member: FleetMember; traffic: FleetTrafficAllowance }> = [];
  afterEach(async () => {
    for (const { member: one, traffic } of made.splice(0)) {
      traffic.close();
      await one.leave();
    }
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) {
      await redis.del(...keys);
    }
    redis.disconnect();
  });

  async function member(
    pendingBytes: () => number = () => pending,
  ): Promise<{ member: FleetMember; traffic: FleetTrafficAllowance }> {
    const joined = new FleetMember(redis, prefix, quiet);
    const traffic = new FleetTrafficAllowance(
      joined,
      pendingBytes,
      (id) => rows.get(id),
      (id) => {
        const one = rows.get(id);
        return one && one.totalBytes - one.usedBytes;
      },
    );
    await joined.start();
    made.push({ member: joined, traffic });
    return { member: joined, traffic };
  }

  const figure = async (one: FleetMember) =>
    Number((await redis.hget(`${prefix}traffic:${planId}`, `m:${one.id}`)) ?? 0);

  it('keeps a draw’s grant in its figure when a usage write settles while the draw is on its way', async () => {
    const { member: one, traffic } = await member();
    // A connection's first bytes were metered and their write stored; the settle that follows goes
    // out while the draw below has not answered yet.
    expect(await traffic.prepare(planId)).toBe(true);
    const granted = traffic.take(planId, 256 * 1024);
    pending = granted;
    traffic.release(planId, granted);
    traffic.flushing(new Map([[planId, granted]]));
    pending = 0;
    row.usedBytes += granted;
    const draw = traffic.whenAvailable(planId);
    traffic.flushed(new Map([[planId, granted]]), new Map([[planId, row.usedBytes]]));
    await draw;
    // Everything sent so far has answered: the figure is what the member holds.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(traffic.held(planId)).toBeGreaterThan(0);
    expect(await figure(one)).toBe(traffic.held(planId));
  });

  it('keeps a draw’s grant in its figure when the heartbeat writes while the draw is on its way', async () => {
    const { member: one, traffic } = await member();
    expect(await traffic.prepare(planId)).toBe(true);
    traffic.take(planId, 2 * MiB);
    const draw = traffic.whenAvailable(planId);
    // Auto-pipelining sends the draw at the next setImmediate; the heartbeat's write goes after it,
    // before its answer.
    await new Promise((resolve) => setImmediate(resolve));
    const beat = one.beat();
    await Promise.all([draw, beat]);
    expect(traffic.held(planId)).toBeGreaterThan(0);
    expect(await figure(one)).toBe(traffic.held(planId));
  });

  it('never grants two gateways together more than the plan has left', async () => {
    const members = [await member(), await member()];
    // Both draw, meter, write and settle as fast as they can, interleaved, until the fleet says no.
    let grantedAll = 0;
    for (let round = 0; round < 400; round += 1) {
      const { traffic } = members[round % 2] as { traffic: FleetTrafficAllowance };
      await traffic.prepare(smallPlanId);
      const got = traffic.take(smallPlanId, 512 * 1024);
      if (got === 0) {
        continue;
      }
      grantedAll += got;
      traffic.release(smallPlanId, got);
      traffic.flushing(new Map([[smallPlanId, got]]));
      smallRow.usedBytes += got;
      const draw = traffic.whenAvailable(smallPlanId);
      traffic.flushed(new Map([[smallPlanId, got]]), new Map([[smallPlanId, smallRow.usedBytes]]));
      await draw;
    }
    // Each may run on credit up to CREDIT_BYTES beyond what Redis granted it; nothing more.
    expect(grantedAll).toBeGreaterThan(15 * MiB);
    expect(grantedAll).toBeLessThanOrEqual(smallRow.totalBytes + 2 * CREDIT_BYTES);
  });

  it('holds two busy gateways to the plan: connections drawing while usage writes end at random', async () => {
    // Each gateway as the engine drives it: connections take grants and meter them (pending), a usage
    // write every few milliseconds moves what is pending to the database (a few ms later: stored) and
    // tells the fleet, draws and writes overlapping as they do under a real download.
    const gateways = [0, 1].map(() => ({ pending: 0 }));
    const members = await Promise.all(gateways.map((gateway) => member(() => gateway.pending)));
    let grantedAll = 0;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const connection = async (index: number) => {
      const gateway = gateways[index % 2] as { pending: number };
      const { traffic } = members[index % 2] as { traffic: FleetTrafficAllowance };
      if (!(await traffic.prepare(busyPlanId))) {
        return;
      }
      for (;;) {
        const wanted = 64 * 1024 + Math.floor(Math.random() * 192 * 1024);
        const got = traffic.take(busyPlanId, wanted);
        grantedAll += got;
        // Metered: billed bytes, no longer outstanding in the grant.
        traffic.release(busyPlanId, got);
        gateway.pending += got;
        if (got < wanted) {
          const more = traffic.whenAvailable(busyPlanId);
          if (!more) {
            return;
          }
          await more;
        } else if (Math.random() < 0.3) {
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    };
    let isRunning = true;
    const flusher = async (index: number) => {
      const gateway = gateways[index] as { pending: number };
      const { traffic } = members[index] as { traffic: FleetTrafficAllowance };
      while (isRunning || gateway.pending > 0) {
        await sleep(1 + Math.floor(Math.random() * 4));
        const bytes = gateway.pending;
        if (bytes === 0) {
          continue;
        }
        gateway.pending = 0;
        const billed = new Map([[busyPlanId, bytes]]);
        traffic.flushing(billed);
        await sleep(Math.floor(Math.random() * 3));
        busyRow.usedBytes += bytes;
        traffic.flushed(billed, new Map([[busyPlanId, busyRow.usedBytes]]));
      }
    };
    const flushers = [flusher(0), flusher(1)];
    await Promise.all([0, 1, 2, 3, 4, 5].map(connection));
    isRunning = false;
    await Promise.all(flushers);
    expect(grantedAll).toBeGreaterThan(25 * MiB);
    expect(grantedAll).toBeLessThanOrEqual(busyRow.totalBytes + 2 * CREDIT_BYTES);
  });

  it('draws nothing for a plan that has a reserve when a connection waits on something else', async () => {
    const { traffic } = await member();
    expect(await traffic.prepare(loweredPlanId)).toBe(true);
    const reserve = traffic.held(loweredPlanId);
    // A proxy user's exhausted cap holds the relay: it asks again and again.
    for (let i = 0; i < 20; i += 1) {
      await traffic.whenAvailable(loweredPlanId);
    }
    expect(traffic.held(loweredPlanId)).toBe(reserve);
  });

  it('gives a reserve up when the plan’s total is lowered, and spends no more than the new total', async () => {
    // Metered and not yet stored: this member's pending bytes.
    let metered = 0;
    const { traffic } = await member(() => metered);
    expect(await traffic.prepare(loweredPlanId)).toBe(true);
    expect(traffic.held(loweredPlanId)).toBeGreaterThan(MiB);
    // A refund leaves the plan 256 KiB; the gateway reads the row (and gives Redis the new total).
    loweredRow.totalBytes = loweredRow.usedBytes + 256 * 1024;
    loweredRow.changedAt = Date.now() + 1000;
    traffic.planRowsChanged(new Map([[loweredPlanId, { ...loweredRow }]]));
    expect(traffic.held(loweredPlanId)).toBe(0);
    let spent = 0;
    for (let i = 0; i < 100; i += 1) {
      const got = traffic.take(loweredPlanId, 64 * 1024);
      spent += got;
      traffic.release(loweredPlanId, got);
      metered += got;
      if (got < 64 * 1024) {
        const more = traffic.whenAvailable(loweredPlanId);
        if (!more) {
          break;
        }
        await more;
      }
    }
    expect(spent).toBeLessThanOrEqual(256 * 1024 + CREDIT_BYTES);
  });

  it('holds each gateway to its reserve and a bounded credit while Redis is away, then waits for Redis', async () => {
    // Two gateways whose own views (the database's figure less what each used itself) do not see each
    // other's traffic: on those alone each would carry the whole plan, and the fleet twice its traffic.
    const used = [0, 0];
    const gateways = [await member(() => used[0] ?? 0), await member(() => used[1] ?? 0)];
    const reserves: number[] = [];
    for (const { traffic } of gateways) {
      expect(await traffic.prepare(outagePlanId)).toBe(true);
      reserves.push(
        Number(
          (await redis.hget(
            `${prefix}traffic:${outagePlanId}`,
            `m:${gateways[reserves.length]?.member.id}`,
          )) ?? 0,
        ),
      );
    }
    for (const { member: one } of gateways) {
      one.failed(new Error('Redis away'));
    }
    // Both carry as fast as they can (each grant metered at once) until nothing more is granted.
    let isCarrying = true;
    while (isCarrying) {
      isCarrying = false;
      gateways.forEach(({ traffic }, i) => {
        const grant = traffic.take(outagePlanId, 256 * 1024);
        traffic.release(outagePlanId, grant);
        used[i] = (used[i] ?? 0) + grant;
        isCarrying ||= grant > 0;
      });
    }
    const [first, second] = gateways.map(({ traffic }) => traffic);
    gateways.forEach((_, i) => {
      // Its reserve, and a credit of 4 MiB (a sixteenth of 64 MiB is no more).
      expect(used[i]).toBe((reserves[i] ?? 0) + DEGRADED_CREDIT_BYTES);
    });
    const carried = (used[0] ?? 0) + (used[1] ?? 0);
    console.log(
      `Redis away, 2 gateways, 64 MiB plan: carried ${carried} (reserves ${reserves.join(' + ')}, credit ${DEGRADED_CREDIT_BYTES} each)`,
    );
    expect(carried).toBeLessThanOrEqual(outageRow.totalBytes);
    // A connection then waits, rather than ends, and carries on once Redis answers (the next heartbeat).
    const waits = first?.whenAvailable(outagePlanId);
    expect(waits).toBeInstanceOf(Promise);
    await waits;
    await gateways[0]?.member.beat();
    expect(gateways[0]?.member.isDegraded).toBe(false);
    expect(await first?.prepare(outagePlanId)).toBe(true);
    expect(first?.take(outagePlanId, 64 * 1024)).toBeGreaterThan(0);
    expect(second).toBeDefined();
  });
});
