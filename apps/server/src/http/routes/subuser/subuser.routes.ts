import {
  insufficientBalanceSchema,
  planSchema,
  purchasePlanRequestSchema,
  purchasePlanResponseSchema,
} from '@bytegate/contracts/billing';
import {
  hasPlanResponseSchema,
  planByIdQuerySchema,
  planForPoolQuerySchema,
  planListResponseSchema,
  planUsageQuerySchema,
  planUsageResponseSchema,
  regeneratePlanPasswordRequestSchema,
} from '@bytegate/contracts/plans';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { purchasePlan } from '../../../services/billing/purchase-plan.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getPlan } from '../../../services/plans/get-plan.ts';
import { getPlanUsage } from '../../../services/plans/get-plan-usage.ts';
import { listPlans } from '../../../services/plans/list-plans.ts';
import { presentPlan } from '../../../services/plans/present-plan.ts';
import { presentPlanUsage } from '../../../services/plans/present-plan-usage.ts';
import { regeneratePlanPassword } from '../../../services/plans/regenerate-plan-password.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];

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
          403: errorResponseSchema,
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
        response: { 200: hasPlanResponseSchema },
      },
    },
    async (request) => {
      const plans = await listPlans(ctx, { userId: getAuth(request).user.id });
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
        querystring: planForPoolQuerySchema,
        response: { 200: planSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      presentPlan(
        await getPlan(ctx, { userId: getAuth(request).user.id, poolType: request.query.pool_type }),
      ),
  );

  app.get(
    '/subuser/plans',
    {
      schema: {
        tags: ['plans'],
        summary: "The user's active plans",
        security,
        response: { 200: planListResponseSchema },
      },
    },
    async (request) => {
      const plans = await listPlans(ctx, { userId: getAuth(request).user.id });
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
        querystring: planByIdQuerySchema,
        response: { 200: planSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      presentPlan(await getPlan(ctx, { userId: getAuth(request).user.id, planId: request.query.subuser_id })),
  );

  app.post(
    '/subuser/regenerate-password',
    {
      schema: {
        tags: ['plans'],
        summary:
          'Gives a plan a new proxy password; the old one stops working and its open connections close within 2 s',
        security,
        body: regeneratePlanPasswordRequestSchema,
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
        querystring: planUsageQuerySchema,
        response: { 200: planUsageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      presentPlanUsage(
        await getPlanUsage(ctx, {
          userId: getAuth(request).user.id,
          planId: request.query.subuser_id,
          period: request.query.period,
        }),
      ),
  );
};
