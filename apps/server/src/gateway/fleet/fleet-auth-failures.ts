import type { AuthFailureCounts, FailureCount } from '@bytegate/gateway';
import type { FleetMember } from './fleet-member.ts';

/**
 * Failed proxy logins counted by the whole fleet (the gateway's auth-throttle.ts): one Redis counter a
 * key, its window opened by its first failure (SET NX PX, then INCR, then PTTL, in one MULTI), so a
 * guesser spread over many gateways is slowed and refused as on one. While Redis does not answer the
 * add rejects and the throttle counts in this process instead, as the rest of the fleet's limits do.
 */
export class FleetAuthFailures implements AuthFailureCounts {
  constructor(private readonly member: FleetMember) {}

  private keyOf(key: string): string {
    return this.member.key(`authfail:${key}`);
  }

  async add(keys: readonly string[], windowMs: number): Promise<FailureCount[]> {
    const multi = this.member.redis.multi();
    for (const key of keys) {
      const name = this.keyOf(key);
      multi.set(name, 0, 'PX', windowMs, 'NX').incr(name).pttl(name);
    }
    try {
      const results = await multi.exec();
      if (!results) {
        throw new Error('the failure counts were not written');
      }
      return keys.map((_, i) => {
        const failures = Number(results[i * 3 + 1]?.[1] ?? 0);
        const ttl = Number(results[i * 3 + 2]?.[1] ?? -1);
        return { failures, leftMs: ttl > 0 ? ttl : windowMs };
      });
    } catch (error) {
      this.member.failed(error);
      throw error;
    }
  }

  clear(key: string): void {
    this.member.redis.del(this.keyOf(key)).catch(() => undefined);
  }
}
