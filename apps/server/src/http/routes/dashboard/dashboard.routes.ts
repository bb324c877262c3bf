import { dashboardStatsResponseSchema, dashboardTrafficResponseSchema } from '@bytegate/contracts/dashboard';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../../../services/context.ts';
import { getDailyTraffic } from '../../../services/dashboard/get-daily-traffic.ts';
import { getOverviewStats } from '../../../services/dashboard/get-overview-stats.ts';
import { presentOverviewStats } from '../../../services/dashboard/present-overview-stats.ts';
import { getAuth } from '../../plugins/auth.ts';

/** The overview: metrics and the daily traffic chart, from the gateway's usage buckets. */
export const dashboardRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/dashboard/stats',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Overview metrics: plans and traffic left; requests and errors over 30 days',
        security: [{ bearer: [] }],
        response: { 200: dashboardStatsResponseSchema },
      },
    },
    async (request) =>
      presentOverviewStats(await getOverviewStats(ctx, { userId: getAuth(request).user.id })),
  );

  app.get(
    '/dashboard/traffic',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Traffic per UTC day over the last 30 days, all plans together',
        security: [{ bearer: [] }],
        response: { 200: dashboardTrafficResponseSchema },
      },
    },
    async (request) => ({ days: await getDailyTraffic(ctx, { userId: getAuth(request).user.id }) }),
  );
};
