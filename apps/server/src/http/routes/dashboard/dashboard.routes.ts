import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { listActivePlans, sumUsage } from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';

export const dashboardStatsResponseSchema = z.object({
  metrics: z.object({
    activePlans: z.number().int(),
    totalAvailableGb: z.number(),
    errorRate: z.number(),
    totalRequests: z.number().int(),
    totalErrors: z.number().int(),
  }),
});

export const dashboardRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/dashboard/stats',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Overview metrics: plans and traffic left; requests and errors over 30 days',
        security: [{ bearer: [] }],
        response: { 200: dashboardStatsResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request) => {
      const plans = await listActivePlans(ctx.db, { userId: getAuth(request).user.id });
      const leftBytes = plans.reduce(
        (sum, plan) => sum + Math.max(0, plan.trafficTotalBytes - plan.trafficUsedBytes),
        0,
      );
      const usage = await sumUsage(ctx.db, {
        planIds: plans.map((plan) => plan.id),
        since: new Date(Date.now() - 30 * 24 * 60 * 60 * 1000),
      });
      const totalRequests = usage.requests;
      const totalErrors = usage.errors;
      return {
        metrics: {
          activePlans: plans.length,
          totalAvailableGb: Math.round((leftBytes / BYTES_PER_GB) * 100) / 100,
          errorRate: totalRequests === 0 ? 0 : Math.round((totalErrors / totalRequests) * 1000) / 10,
          totalRequests,
          totalErrors,
        },
      };
    },
  );
};
