import {
  insufficientBalanceSchema,
  planIdSchema,
  planSchema,
  poolTypeSchema,
  purchasePlanRequestSchema,
  purchasePlanResponseSchema,
} from '@bytegate/contracts/billing';
import {
  getActivePlanForPool,
  getPlanById,
  listActivePlans,
  sumErrorsByCode,
  sumUsage,
  topHostsByBytes,
} from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { purchasePlan } from '../../../services/billing/purchase-plan.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { presentPlan } from '../../../services/plans/present-plan.ts';
import { regeneratePlanPassword } from '../../../services/plans/regenerate-plan-password.ts';
import { AppError } from '../../app-error.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];
const DAY_MS = 24 * 60 * 60 * 1000;
const PERIOD_MS = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS } as const;

const usageResponseSchema = z.object({
  period: z.enum(['day', 'week', 'month']),
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
const noPlan = () => new AppError('NOT_FOUND', 'No plan found');

/** Plans ("subusers"): buying GB per pool and reading the plans, always scoped to the signed-in user. */
export const subuserRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);

  app.post(
    '/subuser/create',
    {
      schema: {
        tags: ['plans'],
        summary: 'Buy GB of a pool from the balance: creates the plan or adds traffic to it',
        security,
        body: purchasePlanRequestSchema,
        response: {
          201: purchasePlanResponseSchema,
          400: z.union([insufficientBalanceSchema, errorResponseSchema]),
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const result = await purchasePlan(ctx, {
        userId: getAuth(request).user.id,
        poolType: body.pool_type,
        quantityGb: body.default_pool_parameters.quantity,
        label: body.label,
      });
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/subuser/check',
    {
      schema: {
        tags: ['plans'],
        summary: 'Whether the user has an active plan',
        security,
        response: { 200: z.object({ hasProxyPlan: z.boolean() }) },
      },
    },
    async (request) => {
      const plans = await listActivePlans(ctx.db, { userId: getAuth(request).user.id });
      return { hasProxyPlan: plans.length > 0 };
    },
  );

  app.get(
    '/subuser/plan',
    {
      schema: {
        tags: ['plans'],
        summary: "The user's plan for a pool; 404 when there is none",
        security,
        querystring: z.object({ pool_type: poolTypeSchema }),
        response: { 200: planSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const plan = await getActivePlanForPool(ctx.db, {
        userId: getAuth(request).user.id,
        poolType: request.query.pool_type,
      });
      if (!plan) {
        throw noPlan();
      }
      return presentPlan(plan);
    },
  );

  app.get(
    '/subuser/plans',
    {
      schema: {
        tags: ['plans'],
        summary: "The user's active plans",
        security,
        response: { 200: z.object({ plans: z.array(planSchema) }) },
      },
    },
    async (request) => {
      const plans = await listActivePlans(ctx.db, { userId: getAuth(request).user.id });
      return { plans: plans.map(presentPlan) };
    },
  );

  app.get(
    '/subusers/get',
    {
      schema: {
        tags: ['plans'],
        summary: 'One plan by id; balance is the traffic left in bytes',
        security,
        querystring: z.object({ subuser_id: planIdSchema }),
        response: { 200: planSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const plan = await getPlanById(ctx.db, {
        userId: getAuth(request).user.id,
        planId: request.query.subuser_id,
      });
      if (!plan) {
        throw noPlan();
      }
      return presentPlan(plan);
    },
  );

  app.post(
    '/subuser/regenerate-password',
    {
      schema: {
        tags: ['plans'],
        summary:
          'Gives a plan a new proxy password; the old one stops working and its open connections close within 2 s',
        security,
        body: z.object({ subuser_id: planIdSchema }),
        response: { 200: planSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      regeneratePlanPassword(ctx, { userId: getAuth(request).user.id, planId: request.body.subuser_id }),
  );

  app.get(
    '/subuser/usage',
    {
      schema: {
        tags: ['plans'],
        summary: "A plan's traffic over a period: bytes carried and extra bytes billed for target filters",
        security,
        querystring: z.object({
          subuser_id: planIdSchema,
          period: z
            .enum(['day', 'week', 'month'], { error: 'Period must be day, week or month' })
            .default('week'),
        }),
        response: { 200: usageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const plan = await getPlanById(ctx.db, {
        userId: getAuth(request).user.id,
        planId: request.query.subuser_id,
      });
      if (!plan) {
        throw noPlan();
      }
      const since = new Date(Date.now() - PERIOD_MS[request.query.period]);
      const usage = await sumUsage(ctx.db, { planIds: [plan.id], since });
      const [errors, hosts] = await Promise.all([
        sumErrorsByCode(ctx.db, { planIds: [plan.id], since }),
        topHostsByBytes(ctx.db, { planIds: [plan.id], since, limit: 10 }),
      ]);
      return {
        errors_by_code: errors,
        top_hosts: hosts,
        period: request.query.period,
        since: since.toISOString(),
        total: {
          traffic: usage.bytes,
          extra_traffic: usage.extraBytes,
          requests: usage.requests,
          errors: usage.errors,
        },
      };
    },
  );
};
