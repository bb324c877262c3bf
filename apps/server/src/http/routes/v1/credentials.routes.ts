import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../../services/context.ts';
import { regeneratePlanPassword } from '../../../services/plans/regenerate-plan-password.ts';
import { errorResponseSchema } from '../errors.ts';
import { getApiKey } from './api-key-auth.ts';
import { idField, knownId, toV1Plan, V1_ERRORS, V1_SECURITY, v1PlanSchema } from './v1-shapes.ts';

/** Proxy credentials: a new password for a plan whose password leaked. */
export const v1CredentialRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/plans/:id/regenerate-password',
    {
      config: { scope: 'proxy_users' },
      schema: {
        tags: ['public API v1'],
        summary:
          'A new proxy password for a plan: the old one is refused at once, and its tunnels close within 2 s',
        description: 'Scope `proxy_users`. Answers the plan with its new password.',
        security: V1_SECURITY,
        params: z.object({ id: idField('Plan id') }),
        response: { 200: z.object({ plan: v1PlanSchema }), 404: errorResponseSchema, ...V1_ERRORS },
      },
    },
    async (request) => {
      const plan = await regeneratePlanPassword(ctx, {
        userId: getApiKey(request).user.id,
        planId: knownId(request.params.id, 'No such plan'),
      });
      return { plan: toV1Plan(plan) };
    },
  );
};
