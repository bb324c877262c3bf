import {
  adminPlanParamsSchema,
  adminPlanResponseSchema,
  adminUserParamsSchema,
  customerDetailResponseSchema,
  reasonRequestSchema,
} from '@bytegate/contracts/admin';
import { changeUnblocksRequestSchema } from '@bytegate/contracts/unblocks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeUnblocks } from '../../../services/accounts/unblocks.ts';
import { getCustomerDetail } from '../../../services/back-office/get-customer-detail.ts';
import { regeneratePasswordAsStaff } from '../../../services/back-office/regenerate-password.ts';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const refusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};

/** What gets a customer's traffic through: a plan's proxy password and the customer's unblocks. */
export const credentialsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.post(
    '/plans/:planId/password',
    {
      schema: {
        tags: ['admin'],
        summary: 'Give a plan a new proxy password: the old one is refused and its tunnels close within 2 s',
        security: [{ bearer: [] }],
        params: adminPlanParamsSchema,
        body: reasonRequestSchema,
        response: { 200: adminPlanResponseSchema, ...refusals },
      },
    },
    async (request) => ({
      plan: await regeneratePasswordAsStaff(ctx, {
        planId: request.params.planId,
        reason: request.body.reason,
        actor: staffActorOf(getAuth(request).user),
      }),
    }),
  );

  app.post(
    '/customers/:userId/unblocks',
    {
      schema: {
        tags: ['admin'],
        summary: 'Open (or, with remove, close) target ports and blocked domains for a customer',
        security: [{ bearer: [] }],
        params: adminUserParamsSchema,
        body: changeUnblocksRequestSchema,
        response: { 200: customerDetailResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { userId } = request.params;
      await changeUnblocks(ctx.db, {
        userId,
        ports: request.body.ports,
        hosts: request.body.hosts,
        remove: request.body.remove,
        reason: request.body.reason,
        actor: staffActorOf(getAuth(request).user),
      });
      return getCustomerDetail(ctx, { userId });
    },
  );
};
