import { z } from 'zod';
import { MAX_PURCHASE_GB, MIN_PURCHASE_GB, PLAN_LABEL_MAX_LENGTH, PRICE_PER_GB_CENTS } from './constants.ts';
import { POOL_TYPES, type PoolType } from './pools.ts';
import { text } from './text.ts';

export const poolTypeSchema = z.enum(POOL_TYPES, {
  error: `Pool type must be one of ${POOL_TYPES.join(', ')}`,
});

/** Total price in integer cents of `quantityGb` GB of a pool. */
export function planPriceCents(poolType: PoolType, quantityGb: number): number {
  return PRICE_PER_GB_CENTS[poolType] * quantityGb;
}

// Money lives in money.ts (no zod there, so the public pages format prices without the schemas);
// re-exported here for the importers that predate it.

export const purchaseQuantitySchema = z
  .number({ error: 'Quantity must be a whole number of GB' })
  .int('Quantity must be a whole number of GB')
  .min(MIN_PURCHASE_GB, `The minimum purchase is ${MIN_PURCHASE_GB} GB`)
  .max(MAX_PURCHASE_GB, `The maximum purchase is ${MAX_PURCHASE_GB.toLocaleString('en-US')} GB`);

export const purchasePlanRequestSchema = z.object({
  label: text('Label', { shouldTrim: true })
    .max(PLAN_LABEL_MAX_LENGTH, `Label must be at most ${PLAN_LABEL_MAX_LENGTH} characters`)
    .optional(),
  pool_type: poolTypeSchema,
  default_pool_parameters: z.object({ quantity: purchaseQuantitySchema }),
});
export type PurchasePlanRequest = z.input<typeof purchasePlanRequestSchema>;

/** A plan's id (`subuser_id`) as a request names it; an unknown one is a 404. */
export const planIdSchema = text('Plan id').max(64);

/** An order's number as a request names it (ORD-…); an unknown one is a 404. */
export const orderIdSchema = text('Order id').max(32);

/** A plan as the API answers it (SPEC section 3): balance is the traffic left, in bytes. */
export const planSchema = z.object({
  subUserId: z.string(),
  poolType: poolTypeSchema,
  label: z.string(),
  login: z.string(),
  password: z.string(),
  threads: z.number().int(),
  /** Bytes of traffic left. */
  balance: z.number().int(),
  /** Traffic left for people: '12.50 GB'. */
  balanceFormat: z.string(),
  trafficTotalBytes: z.number().int(),
  trafficUsedBytes: z.number().int(),
  active: z.boolean(),
  createdAt: z.string(),
});
export type Plan = z.infer<typeof planSchema>;

/** `review`: a top-up paid short without a USD figure, held for a person to check (shown "Under review"). */
export const orderStatusSchema = z.enum(['completed', 'pending', 'failed', 'review']);

export const orderSchema = z.object({
  orderId: z.string(),
  date: z.string(),
  description: z.string(),
  amount: z.number(),
  currency: z.string(),
  paymentMethod: z.string(),
  status: orderStatusSchema,
  invoiceUrl: z.string(),
  /**
   * Dollars a completed top-up credited: less than `amount` when the payer stopped short and what
   * arrived was credited. Null for a purchase and for a top-up not credited (yet).
   */
  creditedAmount: z.number().nullable(),
});
export type Order = z.infer<typeof orderSchema>;

export const purchasePlanResponseSchema = z.object({
  success: z.literal(true),
  plan: planSchema,
  order: orderSchema,
  balance: z.number(),
});
export type PurchasePlanResponse = z.infer<typeof purchasePlanResponseSchema>;

export const insufficientBalanceSchema = z.object({
  error: z.literal('Insufficient balance'),
  code: z.literal('INSUFFICIENT_BALANCE'),
  /** Dollars the purchase needs and dollars the balance holds. */
  required: z.number(),
  current: z.number(),
});
