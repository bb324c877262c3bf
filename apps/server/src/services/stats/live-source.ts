import type { Redis } from 'ioredis';
import { addLivePlans, type LivePlan, LiveRates } from './live-rates.ts';

/** Where the live view reads what is open and moving now. */
export interface LiveSource {
  /** `fleet`: every gateway, through Redis; `local`: the gateway in this process; `unavailable`: neither. */
  scope: 'fleet' | 'local' | 'unavailable';
  plans(): Promise<Map<string, LivePlan>>;
}

/** What a gateway lets the live view read: its open connections and running byte sums per plan. */
export interface LiveReadable {
  connections(): { byPlan: ReadonlyMap<string, number> };
  carriedByPlan(): ReadonlyMap<string, number>;
}

const SAMPLE_EVERY_MS = 1000;
/** A gateway's published figures live this long, so a dead gateway leaves the sum within seconds. */
export const LIVE_TTL_MS = 6000;
const liveKey = (prefix: string, memberId: string) => `${prefix}live:${memberId}`;
const membersKey = (prefix: string) => `${prefix}live:members`;

/**
 * Samples a gateway once a second into live rates; with Redis (a fleet), publishes them every second
 * under the gateway's member id, for any API process to add up. Answers the local source and a stop.
 */
export function startLiveSampler(
  gateway: LiveReadable,
  fleet?: { redis: Redis; prefix: string; memberId: string } | null,
): { source: LiveSource; stop: () => void } {
  const rates = new LiveRates();
  const tick = () => {
    rates.sample(Date.now(), gateway.connections().byPlan, gateway.carriedByPlan());
    if (fleet) {
      const now = Date.now();
      const body = JSON.stringify([...rates.snapshot()]);
      fleet.redis
        .multi()
        .set(liveKey(fleet.prefix, fleet.memberId), body, 'PX', LIVE_TTL_MS)
        .zadd(membersKey(fleet.prefix), now, fleet.memberId)
        .zremrangebyscore(membersKey(fleet.prefix), 0, now - LIVE_TTL_MS)
        .exec()
        .catch(() => undefined);
    }
  };
  tick();
  const timer = setInterval(tick, SAMPLE_EVERY_MS);
  timer.unref();
  return {
    source: { scope: 'local', plans: async () => rates.snapshot() },
    stop: () => clearInterval(timer),
  };
}

/** The fleet's live figures: every gateway that published in the last seconds, added up. */
export function redisLiveSource(redis: Redis, prefix: string): LiveSource {
  return {
    scope: 'fleet',
    async plans() {
      const members = await redis.zrangebyscore(membersKey(prefix), Date.now() - LIVE_TTL_MS, '+inf');
      const sum = new Map<string, LivePlan>();
      if (members.length === 0) {
        return sum;
      }
      const bodies = await redis.mget(...members.map((member) => liveKey(prefix, member)));
      for (const body of bodies) {
        if (body) {
          addLivePlans(sum, JSON.parse(body) as Array<[string, LivePlan]>);
        }
      }
      return sum;
    },
  };
}

export const unavailableLiveSource: LiveSource = { scope: 'unavailable', plans: async () => new Map() };
