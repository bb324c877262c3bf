import { z } from 'zod';
import { planIdSchema, planSchema, poolTypeSchema } from './billing.ts';

/** `GET /subuser/check`: whether the user has an active plan at all. */
export const hasPlanResponseSchema = z.object({ hasProxyPlan: z.boolean() });
export type HasPlanResponse = z.infer<typeof hasPlanResponseSchema>;

/** `GET /subuser/plans`: the user's active plans. */
export const planListResponseSchema = z.object({ plans: z.array(planSchema) });
export type PlanListResponse = z.infer<typeof planListResponseSchema>;

/** `GET /subuser/plan`: the user's plan for one pool. */
export const planForPoolQuerySchema = z.object({ pool_type: poolTypeSchema });
export type PlanForPoolQuery = z.input<typeof planForPoolQuerySchema>;

/** `GET /subusers/get`: one plan by id. */
export const planByIdQuerySchema = z.object({ subuser_id: planIdSchema });
export type PlanByIdQuery = z.input<typeof planByIdQuerySchema>;

/** `POST /subuser/regenerate-password`. */
export const regeneratePlanPasswordRequestSchema = z.object({ subuser_id: planIdSchema });
export type RegeneratePlanPasswordRequest = z.input<typeof regeneratePlanPasswordRequestSchema>;

/** The periods a plan's usage can be read over. */
export const USAGE_PERIODS = ['day', 'week', 'month'] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

/** `GET /subuser/usage`. */
export const planUsageQuerySchema = z.object({
  subuser_id: planIdSchema,
  period: z.enum(USAGE_PERIODS, { error: 'Period must be day, week or month' }).default('week'),
});
export type PlanUsageQuery = z.input<typeof planUsageQuerySchema>;

export const planUsageResponseSchema = z.object({
  period: z.enum(USAGE_PERIODS),
  since: z.string(),
  /** Bytes; extra_traffic is what target filters add to the bill (they bill 2x). */
  total: z.object({
    traffic: z.number().int(),
    extra_traffic: z.number().int(),
    requests: z.number().int(),
    errors: z.number().int(),
  }),
  /** Refusals by gateway error code, most frequent first. */
  errors_by_code: z.array(z.object({ code: z.string(), count: z.number().int() })),
  /** The 10 target hosts that carried the most bytes (counted per UTC day). */
  top_hosts: z.array(z.object({ host: z.string(), bytes: z.number().int() })),
});
export type PlanUsageResponse = z.infer<typeof planUsageResponseSchema>;
