import { z } from 'zod';
import { POOL_TYPES } from './pools.ts';

// The console's abuse and health view (issue 15): `GET /api/admin/health`. Over the last 24 hours, from
// the gateway's hourly usage aggregates: the plans that send the most and fail the most, what the gateway
// refused by code (blocked hosts and ports among them) and who hit the blocks; and now, the connections
// the gateway in this process holds open.

/** How far back the view looks. */
export const HEALTH_WINDOW_HOURS = 24;
/** Plans per top list. */
export const HEALTH_TOP_PLANS = 10;
/** The refusals that mean a customer tried what the policy blocks. */
export const BLOCKED_CODES = ['HOST_BLOCKED', 'PORT_BLOCKED', 'PRIVATE_TARGET'] as const;

/** A plan as the view names it: login, pool and owner (whose page it links to). */
export const healthPlanSchema = z.object({
  planId: z.string(),
  login: z.string(),
  pool: z.enum(POOL_TYPES),
  userId: z.string(),
  email: z.string(),
});
export type HealthPlan = z.infer<typeof healthPlanSchema>;

export const planTrafficSchema = healthPlanSchema.extend({
  billedBytes: z.number().int(),
  requests: z.number().int(),
  errors: z.number().int(),
});
export type PlanTraffic = z.infer<typeof planTrafficSchema>;

export const fleetHealthResponseSchema = z.object({
  /** The window's start (ISO): hourly buckets that started then or later. */
  since: z.string(),
  topByTraffic: z.array(planTrafficSchema),
  topByErrors: z.array(planTrafficSchema),
  /** Refusals and failures by code, all plans together, most frequent first. */
  errorsByCode: z.array(z.object({ code: z.string(), count: z.number().int() })),
  /** Hits of the blocked hosts, ports and private targets, and the plans that hit them most. */
  blocked: z.object({
    hostHits: z.number().int(),
    portHits: z.number().int(),
    privateHits: z.number().int(),
    topPlans: z.array(healthPlanSchema.extend({ code: z.string(), count: z.number().int() })),
  }),
  /** Requests and errors per hour, oldest first, every hour of the window (zeros included). */
  hourly: z.array(z.object({ hour: z.string(), requests: z.number().int(), errors: z.number().int() })),
  /**
   * The connections the gateway of this server process holds now (other processes are not counted);
   * null when this process runs no gateway.
   */
  connections: z
    .object({
      open: z.number().int(),
      authenticating: z.number().int(),
      topPlans: z.array(healthPlanSchema.extend({ connections: z.number().int() })),
    })
    .nullable(),
  /** The exit inventory by status. */
  exits: z.object({
    total: z.number().int(),
    active: z.number().int(),
    outOfRotation: z.number().int(),
    disabled: z.number().int(),
  }),
});
export type FleetHealthResponse = z.infer<typeof fleetHealthResponseSchema>;
