import {
  adminPlanParamsSchema,
  adminPlanResponseSchema,
  changeThreadLimitRequestSchema,
} from '@bytegate/contracts/admin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeThreadLimit } from '../../../services/back-office/change-thread-limit.ts';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

export const plansRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/plans/:planId/threads',
    {
      schema: {
        tags: ['admin'],
        summary: "Change a plan's thread limit; the gateway applies it within 2 s",
        security: [{ bearer: [] }],
        params: adminPlanParamsSchema,
        body: changeThreadLimitRequestSchema,
        response: {
          200: adminPlanResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => ({
      plan: await changeThreadLimit(ctx, {
        planId: request.params.planId,
        threadLimit: request.body.threadLimit,
        reason: request.body.reason,
        actor: staffActorOf(getAuth(request).user),
      }),
    }),
  );
};
