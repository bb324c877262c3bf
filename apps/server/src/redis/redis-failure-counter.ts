import type { Redis } from 'ioredis';
import {
  type FailureCounts,
  type FailureCountsFactory,
  type FailureRule,
  memoryFailureCounts,
} from '../services/accounts/login-throttle.ts';

/**
 * Failed sign-ins counted in Redis, so every API process sees the same counts: a key per counter and
 * subject whose first failure opens the window (SET NX PX) and each failure adds one (INCR), in one
 * MULTI. This process also counts in its own memory, and answers from there while Redis is away: a
 * guesser is still held back by each process alone, never let through unlimited.
 */
export function redisFailureCounts(redis: Redis, prefix: string): FailureCountsFactory {
  const local = memoryFailureCounts();
  return (rule: FailureRule, name: string): FailureCounts => {
    const fallback = local(rule, name);
    const keyOf = (key: string) => `${prefix}login:${name}:${key}`;
    const sourcesOf = (key: string) => `${prefix}login:${name}:${key}:sources`;
    return {
      async lockedForMs(key) {
        try {
          const results = await redis.multi().get(keyOf(key)).pttl(keyOf(key)).exec();
          const failures = Number(results?.[0]?.[1] ?? 0);
          const ttl = Number(results?.[1]?.[1] ?? -2);
          return failures >= rule.max && ttl > 0 ? ttl : 0;
        } catch {
          return fallback.lockedForMs(key);
        }
      },
      async fail(key, source) {
        await fallback.fail(key, source);
        try {
          const multi = redis.multi().set(keyOf(key), 0, 'PX', rule.windowMs, 'NX').incr(keyOf(key));
          if (source !== undefined) {
            // The sources' set lives as long as the window's last failure: never shorter than the count.
            multi.sadd(sourcesOf(key), source).pexpire(sourcesOf(key), rule.windowMs);
          }
          await multi.exec();
        } catch {
          // Counted locally; Redis's count resumes when it is back.
        }
      },
      async clear(key) {
        await fallback.clear(key);
        try {
          await redis.del(keyOf(key), sourcesOf(key));
        } catch {
          // The window ends on its own.
        }
      },
      async tally(key) {
        try {
          const results = await redis.multi().get(keyOf(key)).scard(sourcesOf(key)).exec();
          const failures = Number(results?.[0]?.[1] ?? 0);
          return { failures, sources: failures > 0 ? Number(results?.[1]?.[1] ?? 0) : 0 };
        } catch {
          return fallback.tally(key);
        }
      },
    };
  };
}
