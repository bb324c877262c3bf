import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PaymentProviders } from '../../../payments/providers.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { auditRoutes } from './audit.routes.ts';
import { catalogRoutes } from './catalog.routes.ts';
import { credentialsRoutes } from './credentials.routes.ts';
import { customerUsageRoutes } from './customer-usage.routes.ts';
import { customersRoutes } from './customers.routes.ts';
import { exitsRoutes } from './exits.routes.ts';
import { healthRoutes } from './health.routes.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { plansRoutes } from './plans.routes.ts';
import { sourceReconciliationRoutes } from './source-reconciliation.routes.ts';
import { sourcesRoutes } from './sources.routes.ts';
import { supportRoutes } from './support.routes.ts';
import { threadRequestsAdminRoutes } from './thread-requests.routes.ts';

/**
 * The back office under /api/admin. The staff guard is one hook on this whole scope, added before any
 * route, so every route registered here (now or later) answers 401 anonymous and 403 to a customer by
 * construction; admin.test.ts walks the registered routes to prove it. What only admins may do beyond
 * that (money past the support limit, roles) the use cases check.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext; payments: PaymentProviders }> = async (
  app,
  { ctx, payments },
) => {
  app.addHook('onRequest', app.requireStaff('support'));
  await app.register(customersRoutes, { ctx });
  await app.register(customerUsageRoutes, { ctx });
  await app.register(plansRoutes, { ctx });
  await app.register(auditRoutes, { ctx });
  await app.register(credentialsRoutes, { ctx });
  await app.register(paymentsRoutes, { ctx, payments });
  await app.register(supportRoutes, { ctx });
  await app.register(threadRequestsAdminRoutes, { ctx });
  await app.register(exitsRoutes, { ctx });
  await app.register(sourcesRoutes, { ctx });
  await app.register(sourceReconciliationRoutes, { ctx });
  await app.register(catalogRoutes, { ctx });
  await app.register(healthRoutes, { ctx });
};
