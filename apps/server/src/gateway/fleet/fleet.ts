import type { SharedGatewayState } from '@bytegate/gateway';
import type { Redis } from 'ioredis';
import { createRedis, waitForRedis } from '../../redis/redis-client.ts';
import type { DbGatewayStore } from '../db-gateway-store.ts';
import { FleetAuthFailures } from './fleet-auth-failures.ts';
import { type FleetLog, FleetMember } from './fleet-member.ts';
import { FleetSessions } from './fleet-sessions.ts';
import { FleetThreadSlots } from './fleet-thread-slots.ts';
import { FleetTrafficAllowance } from './fleet-traffic.ts';
import { onGatewayChange } from './gateway-changes.ts';

/**
 * A Redis command of the hot path that has not answered in this long counts as Redis being away. Not
 * less: a gateway whose event loop lags on a loaded machine read Redis's prompt answers after 500 ms
 * timers had fired, fell back to its own limits, and two gateways then overdrew a plan (fleet suite).
 */
const COMMAND_TIMEOUT_MS = 2000;

export interface Fleet {
  member: FleetMember;
  shared: SharedGatewayState;
  /** Leaves the fleet: the lease goes, so another gateway may take what this one held at once. */
  close(): Promise<void>;
}

/**
 * This gateway as one of many on Redis: thread slots, traffic and sticky sessions shared (see each
 * part), and a refresh of the store whenever anything publishes a change. `redis` is given by tests.
 */
export async function joinFleet(params: {
  redisUrl: string;
  prefix: string;
  store: DbGatewayStore;
  log: FleetLog;
  redis?: Redis;
}): Promise<Fleet> {
  const { store, prefix } = params;
  const redis =
    params.redis ??
    createRedis(params.redisUrl, { commandTimeoutMs: COMMAND_TIMEOUT_MS, autoPipelining: true });
  const subscriber = createRedis(params.redisUrl, { isSubscriber: true });
  const member = new FleetMember(redis, prefix, params.log);
  const threads = new FleetThreadSlots(member);
  const sessions = new FleetSessions(member);
  let traffic: FleetTrafficAllowance | undefined;
  const shared: SharedGatewayState = {
    threads,
    sessions,
    authFailures: new FleetAuthFailures(member),
    allowance: (pendingBytes) => {
      traffic = new FleetTrafficAllowance(
        member,
        pendingBytes,
        (key) => store.planTraffic(key),
        (key) => store.trafficLeftBytes(key),
      );
      store.trafficObserver = traffic;
      return traffic;
    },
  };
  // A gateway that starts beside a running Redis shares from its first connection (a Redis that is away
  // is not fatal: the first heartbeat then reports it and local limits apply).
  await waitForRedis(redis, 2000);
  await member.start();
  const stopListening = await onGatewayChange(subscriber, prefix, () => store.refresh());
  return {
    member,
    shared,
    async close() {
      traffic?.close();
      await stopListening();
      subscriber.disconnect();
      await member.leave();
      if (!params.redis) {
        redis.disconnect();
      }
    },
  };
}
