import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createRedis } from '../../redis/redis-client.ts';
import { isGatewayWrite } from '../local-gateway-changes.ts';

/**
 * Invalidation through Redis pub/sub: anything that writes what gateways cache (plans, passwords, proxy
 * settings, allowlists, unblocks, inventory) publishes on one channel, and every gateway refreshes from
 * the database at once instead of at its next periodic refresh (kept as the fallback: a message lost
 * while Redis is away costs at most one refresh interval). The message says nothing but "look again":
 * the database stays the only truth.
 */
export function gatewayChangesChannel(prefix: string): string {
  return `${prefix}gateway:changed`;
}

/** Tells every gateway to look again; never fails the caller (the periodic refresh covers a loss). */
export function publishGatewayChange(redis: Redis, prefix: string, what: string): void {
  redis.publish(gatewayChangesChannel(prefix), what).catch(() => undefined);
}

/**
 * Runs `refresh` whenever a change is published: one at a time, and one more after it when changes
 * arrived meanwhile (a burst of writes costs two refreshes, not one each). Answers a function that stops.
 */
export async function onGatewayChange(
  subscriber: Redis,
  prefix: string,
  refresh: () => Promise<void>,
): Promise<() => Promise<void>> {
  let running: Promise<void> | null = null;
  let isAgain = false;
  const run = () => {
    if (running) {
      isAgain = true;
      return;
    }
    running = refresh()
      .catch(() => undefined)
      .finally(() => {
        running = null;
        if (isAgain) {
          isAgain = false;
          run();
        }
      });
  };
  const channel = gatewayChangesChannel(prefix);
  subscriber.on('message', (from: string) => {
    if (from === channel) {
      run();
    }
  });
  // Subscribed on every (re)connection: a gateway that started while Redis was away listens once it is back.
  const subscribe = () => {
    subscriber.subscribe(channel).catch(() => undefined);
  };
  subscriber.on('ready', subscribe);
  if (subscriber.status === 'ready') {
    subscribe();
  }
  return async () => {
    subscriber.off('ready', subscribe);
    await subscriber.unsubscribe(channel).catch(() => undefined);
  };
}

/**
 * After every API write that succeeded and may concern the gateways (a purchase, proxy settings, the
 * allowlist, a password, an account deleted, anything staff do), tells them to look again.
 */
export function tellGatewaysOfWrites(app: FastifyInstance, redis: Redis, prefix: string): void {
  app.addHook('onResponse', async (request, reply) => {
    if (isGatewayWrite(request.method, request.url, reply.statusCode)) {
      publishGatewayChange(redis, prefix, `${request.method} ${request.routeOptions.url ?? request.url}`);
    }
  });
}

/**
 * One publish from a short-lived process (a back-office command in a terminal): connects, publishes,
 * leaves; gives up quietly after a couple of seconds (the gateways' periodic refresh covers it).
 */
export async function publishGatewayChangeOnce(url: string, prefix: string, what: string): Promise<void> {
  const redis = createRedis(url, { isSubscriber: true, commandTimeoutMs: 2000 });
  try {
    await redis.publish(gatewayChangesChannel(prefix), what);
  } catch {
    // The periodic refresh is the fallback.
  } finally {
    redis.disconnect();
  }
}
