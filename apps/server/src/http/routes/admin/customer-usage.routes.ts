import { adminUserParamsSchema } from '@bytegate/contracts/admin';
import { dashboardTrafficResponseSchema } from '@bytegate/contracts/dashboard';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getCustomerUsage } from '../../../services/back-office/get-customer-usage.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { errorResponseSchema } from '../errors.ts';

/** The usage chart on a customer's console page: the dashboard chart's days, over all their plans. */
export const customerUsageRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/customers/:userId/usage',
    {
      schema: {
        tags: ['admin'],
        summary: "A customer's traffic per UTC day over the last 30 days, every plan together",
        security: [{ bearer: [] }],
        params: adminUserParamsSchema,
        response: {
          200: dashboardTrafficResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => ({ days: await getCustomerUsage(ctx, { userId: request.params.userId }) }),
  );
};
