import type { FastifyPluginAsync } from 'fastify';
import { type ProcessState, type ReadinessCheck, readinessProbe } from './readiness.ts';

/**
 * `/healthz` and `/readyz` on the HTTP app, outside /api (load balancers and orchestrators probe them,
 * never people): alive, and ready to serve (database reachable, migrations applied, not draining; Redis
 * is reported but optional, see readiness.ts).
 */
export const healthRoutes: FastifyPluginAsync<{
  checks: readonly ReadinessCheck[];
  state?: ProcessState | undefined;
}> = async (app, { checks, state }) => {
  const probe = readinessProbe(checks, state ? { state } : {});
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const readiness = await probe();
    return reply.status(readiness.ready ? 200 : 503).send(readiness);
  });
};
