import type { FastifyPluginAsync } from 'fastify';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';
import { proxyUserRoutes } from './proxy-users.routes.ts';

/** The dashboard's Proxy users tab: the public API's proxy-user routes, for a signed-in session. */
export const dashboardProxyUserRoutes: FastifyPluginAsync<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);
  await app.register(proxyUserRoutes, {
    ctx,
    audience: {
      userIdOf: (request) => getAuth(request).user.id,
      tags: ['proxy users'],
      security: [{ bearer: [] }, { cookie: [] }],
      errors: { 401: errorResponseSchema },
      hasScopes: false,
    },
  });
};
