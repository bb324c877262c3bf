import { createHash } from 'node:crypto';
import {
  insufficientBalanceSchema,
  poolTypeSchema,
  purchasePlanRequestSchema,
  purchaseQuantitySchema,
} from '@bytegate/contracts/billing';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { purchasePlan } from '../../../services/billing/purchase-plan.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { errorResponseSchema } from '../errors.ts';
import { getApiKey } from './api-key-auth.ts';
import { toV1Order, toV1Plan, V1_ERRORS, V1_SECURITY, v1OrderSchema, v1PlanSchema } from './v1-shapes.ts';

/** A key a client makes up per purchase (a UUID, say): visible ASCII, at most 255 characters. */
const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key must be 1 to 255 visible ASCII characters.')
  .optional();

const purchaseBodySchema = z.object({
  pool_type: poolTypeSchema,
  gb: purchaseQuantitySchema,
  label: purchasePlanRequestSchema.shape.label,
});

/** Buying traffic from the balance, safely retried: the same Idempotency-Key never buys twice. */
export const v1PurchaseRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/purchases',
    {
      config: { scope: 'purchase' },
      schema: {
        tags: ['public API v1'],
        summary: 'Buy GB of a pool from the balance (creates the plan or adds traffic to it)',
        description:
          'Scope `purchase`. Send an `Idempotency-Key` header (a UUID per purchase): a retry with the same key ' +
          'answers what the first request got, with `Idempotent-Replayed: true`, and never buys twice; the same key ' +
          "with a different body is 409 `CONFLICT`. Keys are kept a day. While the account's email waits for its " +
          'verification link (EMAIL_VERIFICATION required) the answer is 403 `EMAIL_NOT_VERIFIED`.',
        security: V1_SECURITY,
        headers: z.object({ 'idempotency-key': idempotencyKeySchema }),
        body: purchaseBodySchema.meta({ examples: [{ pool_type: 'residential', gb: 10 }] }),
        response: {
          201: z.object({ order: v1OrderSchema, plan: v1PlanSchema, balance_usd: z.number() }),
          400: z.union([insufficientBalanceSchema, errorResponseSchema]),
          409: errorResponseSchema,
          ...V1_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const { user, key } = getApiKey(request);
      const { body } = request;
      const idempotencyKey = request.headers['idempotency-key'];
      const outcome = await purchasePlan(ctx, {
        userId: user.id,
        poolType: body.pool_type,
        quantityGb: body.gb,
        label: body.label,
        apiKeyName: key.name,
        idempotency:
          idempotencyKey === undefined
            ? undefined
            : {
                // Per account: two keys of one account share their idempotency keys, as one client would.
                key: `v1/purchases:${idempotencyKey}`,
                requestHash: createHash('sha256').update(JSON.stringify(body)).digest('hex'),
              },
      });
      if (outcome.isReplay) {
        reply.header('idempotent-replayed', 'true');
      }
      request.log.info({ apiKey: key.id, replay: outcome.isReplay === true }, 'v1 purchase');
      return reply.code(201).send({
        order: toV1Order(outcome.order),
        plan: toV1Plan(outcome.plan),
        balance_usd: outcome.balance,
      });
    },
  );
};
