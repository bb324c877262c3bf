import { type ReleaseSlot, ThreadLimits, type ThreadSlots } from '@bytegate/gateway';
import type { Result } from 'ioredis';
import type { FleetMember } from './fleet-member.ts';

/**
 * Per plan, a hash of member id → slots that member holds. Taking a slot sums the live members' counts
 * (a member whose lease is gone is dropped on the way: its slots are free) and, under the limit, writes
 * this member's new count. Counts are absolute, never increments, so a lost answer or an outage leaves
 * nothing behind that the next write does not correct.
 */
const TAKE_SLOT = `
local fields = redis.call('HGETALL', KEYS[1])
local others = 0
for i = 1, #fields, 2 do
  local member = fields[i]
  if member ~= ARGV[1] then
    if redis.call('EXISTS', ARGV[3] .. member) == 1 then
      others = others + tonumber(fields[i + 1])
    else
      redis.call('HDEL', KEYS[1], member)
    end
  end
end
if others + tonumber(ARGV[4]) > tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    bytegateTakeSlot(
      key: string,
      member: string,
      limit: number,
      alivePrefix: string,
      own: number,
    ): Result<number, Context>;
  }
}

/**
 * A plan's thread limit counted over every gateway: one script call per new connection (pipelined with
 * the connection's other round trips), one write when it ends. This process's own counts are a
 * ThreadLimits, which is also the limit while Redis is away (docs/processes.md "Redis unavailable").
 */
export class FleetThreadSlots implements ThreadSlots {
  private readonly local = new ThreadLimits();
  /** Plans whose count this member has written, so that a count back at 0 is deleted. */
  private readonly written = new Set<string>();
  /** Plans whose count changed this tick, written together at its end. */
  private readonly dirty = new Set<string>();

  constructor(private readonly member: FleetMember) {
    member.redis.defineCommand('bytegateTakeSlot', { numberOfKeys: 1, lua: TAKE_SLOT });
    member.addWriter((pipeline) => {
      for (const planId of new Set([...this.written, ...this.local.perPlan().keys()])) {
        const count = this.local.count(planId);
        if (count > 0) {
          this.written.add(planId);
          pipeline.hset(this.key(planId), member.id, count);
        } else {
          this.written.delete(planId);
          pipeline.hdel(this.key(planId), member.id);
        }
      }
    });
  }

  private key(planId: string): string {
    return this.member.key(`threads:${planId}`);
  }

  /**
   * Writes this member's count for a plan, once per tick however many of its connections closed in it
   * (a failure is mended by the next heartbeat).
   */
  private writeCount(planId: string): void {
    this.dirty.add(planId);
    if (this.dirty.size > 1) {
      return;
    }
    setImmediate(() => {
      const { redis, id } = this.member;
      for (const dirty of this.dirty) {
        const count = this.local.count(dirty);
        if (count > 0) {
          this.written.add(dirty);
        } else {
          this.written.delete(dirty);
        }
        const written = count > 0 ? redis.hset(this.key(dirty), id, count) : redis.hdel(this.key(dirty), id);
        written.catch((error: unknown) => this.member.failed(error));
      }
      this.dirty.clear();
    });
  }

  async acquire(planId: string, limit: number): Promise<ReleaseSlot | null> {
    // Counted here first, so that connections taking slots at once each send a count that includes the
    // ones before them (their scripts run in the order they were sent).
    const releaseLocal = this.local.acquire(planId, limit);
    if (!releaseLocal) {
      return null;
    }
    const release = () => {
      releaseLocal();
      if (!this.member.isDegraded) {
        this.writeCount(planId);
      }
    };
    if (this.member.isDegraded) {
      this.member.fallbacks += 1;
      return release;
    }
    try {
      const taken = await this.member.redis.bytegateTakeSlot(
        this.key(planId),
        this.member.id,
        limit,
        this.member.alivePrefix,
        this.local.count(planId),
      );
      this.written.add(planId);
      if (taken === 1) {
        return release;
      }
      release();
      return null;
    } catch (error) {
      // Redis is away: the slot stands on this process's own count (the plan's whole limit).
      this.member.failed(error);
      return release;
    }
  }

  count(planId: string): number {
    return this.local.count(planId);
  }

  perPlan(): ReadonlyMap<string, number> {
    return this.local.perPlan();
  }

  releaseAll(): number {
    const held = this.local.releaseAll();
    for (const planId of [...this.written]) {
      this.writeCount(planId);
    }
    return held;
  }
}
