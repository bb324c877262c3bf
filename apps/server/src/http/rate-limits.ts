import { waitMessages } from '@bytegate/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimitRule } from '../config.ts';
import { DomainError } from '../services/domain-error.ts';

/** The 429 body of a route's `app.rateLimit(...)`: the real time left in its window. */
export function rateLimitError(message: (seconds: number) => string = waitMessages.tooManyRequests) {
  return (_request: FastifyRequest, context: { ttl: number }) =>
    Object.assign(new Error(message(context.ttl / 1000)), { statusCode: 429 });
}

/**
 * A limit on a key a route knows only once it has run its guards (the signed-in user, say): call the
 * answer in a preHandler. Over the limit it refuses with 429 RATE_LIMITED, the real wait in the
 * message and in Retry-After.
 */
export function keyedRateLimit(
  app: FastifyInstance,
  rule: RateLimitRule,
  keyOf: (request: FastifyRequest) => string,
  message: (seconds: number) => string,
): (request: FastifyRequest) => Promise<void> {
  const limit = app.createRateLimit({ max: rule.max, timeWindow: rule.windowMs, keyGenerator: keyOf });
  return async (request) => {
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new DomainError('RATE_LIMITED', message(result.ttlInSeconds), undefined, {
        retryAfterSeconds: result.ttlInSeconds,
      });
    }
  };
}
