import type { FastifyPluginAsync } from 'fastify';
import { type ReadinessCheck, readinessProbe } from './readiness.ts';

/**
 * `/healthz` and `/readyz` on the HTTP app, outside /api (load balancers and orchestrators probe them,
 * never people): alive, and ready to serve (database reachable, migrations applied).
 */
export const healthRoutes: FastifyPluginAsync<{ checks: readonly ReadinessCheck[] }> = async (
  app,
  { checks },
) => {
  const probe = readinessProbe(checks);
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const readiness = await probe();
    return reply.status(readiness.ready ? 200 : 503).send(readiness);
  });
};
