import { apiKeyScopeSchema } from '@bytegate/contracts/api-keys';
import { type Order, type Plan, poolTypeSchema } from '@bytegate/contracts/billing';
import { text } from '@bytegate/contracts/text';
import { z } from 'zod';
import { DomainError } from '../../../services/domain-error.ts';
import { errorResponseSchema } from '../errors.ts';

// The public API's own shapes: snake_case, bytes as integers, money as integer cents and dollars.

export const V1_SECURITY = [{ apiKey: [] }];
/** A 403 of the public API names the scope the key lacks in `required`. */
const scopeErrorSchema = errorResponseSchema.extend({ required: apiKeyScopeSchema.optional() });
export const V1_ERRORS = { 401: errorResponseSchema, 403: scopeErrorSchema, 429: errorResponseSchema };

export const v1PlanSchema = z.object({
  id: z.string(),
  pool_type: poolTypeSchema,
  label: z.string(),
  login: z.string(),
  password: z.string(),
  threads: z.number().int(),
  is_active: z.boolean(),
  traffic: z.object({
    total_bytes: z.number().int(),
    used_bytes: z.number().int(),
    left_bytes: z.number().int(),
  }),
  created_at: z.string(),
});
export type V1Plan = z.infer<typeof v1PlanSchema>;

export function toV1Plan(
  plan: Pick<
    Plan,
    | 'subUserId'
    | 'poolType'
    | 'label'
    | 'login'
    | 'password'
    | 'threads'
    | 'active'
    | 'trafficTotalBytes'
    | 'trafficUsedBytes'
    | 'createdAt'
  >,
): V1Plan {
  return {
    id: plan.subUserId,
    pool_type: plan.poolType,
    label: plan.label,
    login: plan.login,
    password: plan.password,
    threads: plan.threads,
    is_active: plan.active,
    traffic: {
      total_bytes: plan.trafficTotalBytes,
      used_bytes: plan.trafficUsedBytes,
      left_bytes: Math.max(0, plan.trafficTotalBytes - plan.trafficUsedBytes),
    },
    created_at: plan.createdAt,
  };
}

export const v1OrderSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  description: z.string(),
  amount_usd: z.number(),
  status: z.string(),
  invoice_url: z.string(),
});

export function toV1Order(order: Order): z.infer<typeof v1OrderSchema> {
  return {
    id: order.orderId,
    created_at: order.date,
    description: order.description,
    amount_usd: order.amount,
    status: order.status,
    invoice_url: order.invoiceUrl,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id in a path or query: text like every other field (a NUL is a 400), any other unknown id a 404. */
export const idField = (label: string) => text(label).max(64);

/** The id, when it can name a row; else the 404 an unknown id gets. */
export function knownId(id: string, notFound: string): string {
  if (!UUID.test(id)) {
    throw new DomainError('NOT_FOUND', notFound);
  }
  return id;
}
