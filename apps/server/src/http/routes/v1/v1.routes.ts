import { listActivePlans } from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PaymentProviders } from '../../../payments/providers.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { proxyUserRoutes } from '../proxy-users/proxy-users.routes.ts';
import { getApiKey, guardWithApiKeys } from './api-key-auth.ts';
import { v1CredentialRoutes } from './credentials.routes.ts';
import { v1ProxyListRoutes } from './proxy-list.routes.ts';
import { v1PurchaseRoutes } from './purchases.routes.ts';
import { v1StatsRoutes } from './stats.routes.ts';
import { v1TopupRoutes } from './topups.routes.ts';
import { v1UsageRoutes } from './usage.routes.ts';
import { toV1Plan, V1_ERRORS, V1_SECURITY, v1PlanSchema } from './v1-shapes.ts';

/**
 * The public API (`/api/v1`), for automation and resellers: API keys only (User Settings → API keys),
 * each route checking its scope; errors are `{ error, code }` like the rest of the API.
 */
export const v1Routes: FastifyPluginAsyncZod<{ ctx: ServiceContext; payments: PaymentProviders }> = async (
  app,
  { ctx, payments },
) => {
  guardWithApiKeys(app, ctx);

  app.get(
    '/plans',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['public API v1'],
        summary: 'Your plans, one per pool, with their proxy credentials, threads and traffic',
        description:
          'Scope `read`. Traffic is in bytes: `left_bytes` is what the plan may still carry (total minus used).',
        security: V1_SECURITY,
        response: { 200: z.object({ plans: z.array(v1PlanSchema) }), ...V1_ERRORS },
      },
    },
    async (request) => {
      const { user } = getApiKey(request);
      const plans = await listActivePlans(ctx.db, { userId: user.id });
      return {
        plans: plans.map((plan) =>
          toV1Plan({
            subUserId: plan.id,
            poolType: plan.poolType,
            label: plan.label,
            login: plan.login,
            password: plan.password,
            threads: plan.threadLimit,
            active: plan.isActive,
            trafficTotalBytes: plan.trafficTotalBytes,
            trafficUsedBytes: plan.trafficUsedBytes,
            createdAt: plan.createdAt.toISOString(),
          }),
        ),
      };
    },
  );

  await app.register(v1PurchaseRoutes, { ctx });
  await app.register(v1TopupRoutes, { ctx, payments });
  await app.register(v1UsageRoutes, { ctx });
  await app.register(v1StatsRoutes, { ctx });
  await app.register(v1ProxyListRoutes, { ctx });
  await app.register(v1CredentialRoutes, { ctx });
  await app.register(proxyUserRoutes, {
    ctx,
    audience: {
      userIdOf: (request) => getApiKey(request).user.id,
      tags: ['public API v1'],
      security: V1_SECURITY,
      errors: V1_ERRORS,
      hasScopes: true,
    },
  });
};
