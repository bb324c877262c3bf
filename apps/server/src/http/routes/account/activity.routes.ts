import { activityPageSchema, activityQuerySchema } from '@bytegate/contracts/activity';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listOwnActivity } from '../../../services/activity/list-activity.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

/** The signed-in account's activity feed (docs/api.md, "Account activity"). */
export const activityRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/account/activity',
    {
      schema: {
        tags: ['account'],
        summary:
          "The account's activity, newest first, 20 a page (`cursor` for the next): sign-ins, purchases, top-ups, settings, security changes and our support team's actions",
        security: [{ bearer: [] }],
        querystring: activityQuerySchema,
        response: { 200: activityPageSchema, 400: errorResponseSchema, 401: errorResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request, reply) => {
      // Sign-in addresses and browsers: kept out of shared caches.
      reply.header('cache-control', 'no-store');
      return listOwnActivity(ctx, { userId: getAuth(request).user.id, cursor: request.query.cursor });
    },
  );
};
