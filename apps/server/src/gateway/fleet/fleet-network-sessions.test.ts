import { randomBytes } from 'node:crypto';
import { type NetworkFleet, startNetworkFleet } from '@bytegate/gateway/testing/network-fleet';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, waitForRedis } from '../../redis/redis-client.ts';
import { FleetMember } from './fleet-member.ts';
import { FleetSessions } from './fleet-sessions.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const quiet = { warn() {}, info() {} };
const socks = { socks: true };

// Two gateways of one fleet on a real Redis (each its own fleet member and FleetSessions, as two
// processes are), in front of two fake wholesale networks: a `sessid` through either gateway reaches the
// network as one vendor session and leaves from one exit IP, and a move-on to the other network holds
// for both. The same scenario runs in memory in the gateway's fleet-sessions.socket.test.ts.
describe.runIf(redisUrl)('network sessions shared by a fleet through Redis', () => {
  let redis: Redis;
  let members: [FleetMember, FleetMember];
  let fleet: NetworkFleet;
  const prefix = `test-${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    redis = createRedis(redisUrl ?? '', { commandTimeoutMs: 2000, autoPipelining: true });
    await waitForRedis(redis, 2000);
    members = [new FleetMember(redis, prefix, quiet), new FleetMember(redis, prefix, quiet)];
    await Promise.all(members.map((member) => member.start()));
    fleet = await startNetworkFleet([new FleetSessions(members[0]), new FleetSessions(members[1])]);
  });
  afterAll(async () => {
    await fleet?.close();
    await Promise.all((members ?? []).map((member) => member.leave()));
    const keys = redis ? await redis.keys(`${prefix}*`) : [];
    if (keys.length > 0) {
      await redis.del(...keys);
    }
    redis?.disconnect();
  });

  const bindingIn = (sessid: string) => redis.get(`${prefix}session:${fleet.plan.planId}|${sessid}`);

  it('sends one sessid through either gateway as one vendor session, out of one exit IP', async () => {
    const username = `${fleet.plan.login}__cr.us;sessid.redis1`;
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await fleet.get((i % 2) as 0 | 1, username, socks));
    }
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(fleet.cheap.seen).toHaveLength(6);
    expect(new Set(fleet.cheap.seen.map((seen) => seen.username)).size).toBe(1);
    expect(new Set(fleet.cheap.seen.map((seen) => seen.exit))).toEqual(new Set([answers[0]?.body]));
    expect(await bindingIn('redis1')).toMatch(/^network:cheap\|/);
    expect(await redis.pttl(`${prefix}session:${fleet.plan.planId}|redis1`)).toBeGreaterThan(29 * 60_000);
  });

  it('moves a session to the other network for both gateways when its network fails', async () => {
    const username = `${fleet.plan.login}__cr.us;sessid.redis2`;
    expect((await fleet.get(0, username, socks)).status).toBe(200);
    expect((await fleet.get(1, username, socks)).status).toBe(200);
    const before = await bindingIn('redis2');

    fleet.cheap.failing = true;
    const moved = await fleet.get(1, username, socks);
    expect(moved.status).toBe(200);
    fleet.cheap.failing = false;
    // The rebind is sent without waiting for its answer: Redis has it within a moment.
    for (let i = 0; i < 20 && (await bindingIn('redis2')) === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await bindingIn('redis2')).toMatch(/^network:dear\|/);
    const seenAtDear = fleet.dear.seen.length;
    for (let i = 0; i < 4; i++) {
      expect(await fleet.get((i % 2) as 0 | 1, username, socks)).toEqual(moved);
    }
    const atDear = fleet.dear.seen.slice(seenAtDear - 1);
    expect(atDear).toHaveLength(5);
    expect(new Set(atDear.map((seen) => seen.username)).size).toBe(1);
    expect(new Set(atDear.map((seen) => seen.exit))).toEqual(new Set([moved.body]));
  });
});
