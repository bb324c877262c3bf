import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../../services/context.ts';

/**
 * Real webhooks are a few hundred bytes (Cryptomus' payment fields, Bitcart's `{id, status}`); every one
 * is stored in payment_events, so a bigger body is refused before it is read.
 */
export const WEBHOOK_BODY_LIMIT_BYTES = 16 * 1024;

/** Route options every payment webhook shares: a small body limit and a per-address rate limit. */
export function webhookRouteLimits(app: FastifyInstance, ctx: ServiceContext) {
  const rule = ctx.config.rateLimits.paymentWebhooks;
  return {
    bodyLimit: WEBHOOK_BODY_LIMIT_BYTES,
    // onRequest runs before the body is read: a flood costs neither parsing nor a stored row.
    onRequest: app.rateLimit({ max: rule.max, timeWindow: rule.windowMs }),
  };
}
