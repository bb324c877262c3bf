import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../../../services/context.ts';
import { auditRoutes } from './audit.routes.ts';
import { customersRoutes } from './customers.routes.ts';
import { plansRoutes } from './plans.routes.ts';

/**
 * The back office under /api/admin. The staff guard is one hook on this whole scope, added before any
 * route, so every route registered here (now or later) answers 401 anonymous and 403 to a customer by
 * construction; admin.test.ts walks the registered routes to prove it. What only admins may do beyond
 * that (money past the support limit, roles) the use cases check.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireStaff('support'));
  await app.register(customersRoutes, { ctx });
  await app.register(plansRoutes, { ctx });
  await app.register(auditRoutes, { ctx });
};
