import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import {
  dashboardStatsResponseSchema,
  dashboardTrafficResponseSchema,
  lastUtcDays,
  USAGE_WINDOW_DAYS,
} from '@bytegate/contracts/dashboard';
import { listActivePlans, sumUsage, sumUsageByDay } from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

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
    async (request) => {
      const plans = await listActivePlans(ctx.db, { userId: getAuth(request).user.id });
      const leftBytes = plans.reduce(
        (sum, plan) => sum + Math.max(0, plan.trafficTotalBytes - plan.trafficUsedBytes),
        0,
      );
      const usage = await sumUsage(ctx.db, {
        planIds: plans.map((plan) => plan.id),
        since: new Date(Date.now() - USAGE_WINDOW_DAYS * DAY_MS),
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
    async (request) => {
      const plans = await listActivePlans(ctx.db, { userId: getAuth(request).user.id });
      const days = lastUtcDays(new Date(), USAGE_WINDOW_DAYS);
      const rows = await sumUsageByDay(ctx.db, {
        planIds: plans.map((plan) => plan.id),
        since: new Date(`${days[0]}T00:00:00Z`),
      });
      const byDay = new Map(rows.map((row) => [row.day, row]));
      return {
        days: days.map((day) => byDay.get(day) ?? { day, bytes: 0, extraBytes: 0, requests: 0, errors: 0 }),
      };
    },
  );
};
