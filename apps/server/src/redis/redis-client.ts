import { Redis } from 'ioredis';

/**
 * A Redis connection for state shared by many processes. Commands fail at once while Redis is away
 * (no offline queue, one try each) instead of piling up: the callers have a policy for that (the API's
 * rate limits let requests through; see docs/processes.md, "Redis unavailable"). It reconnects on its own.
 */
export function createRedis(
  url: string,
  options: {
    /** A command unanswered this long fails (a Redis that hangs must not hold a proxy connection). */
    commandTimeoutMs?: number;
    /** For a subscriber: its SUBSCRIBE waits for the connection, and is renewed on every reconnect. */
    isSubscriber?: boolean;
    /** Commands issued in one tick leave in one write (the gateway's admission round trips). */
    autoPipelining?: boolean;
  } = {},
): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: options.isSubscriber === true,
    enableAutoPipelining: options.autoPipelining === true,
    ...(options.commandTimeoutMs === undefined ? {} : { commandTimeout: options.commandTimeoutMs }),
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Reported by the readiness check and the callers; unheard, 'error' would end the process.
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Waits up to `ms` for the first connection, so a process that starts beside a running Redis counts in
 * it from its first request; answers whether it is connected (a Redis that is away is not fatal).
 */
export async function waitForRedis(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') {
    return true;
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, ms);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
