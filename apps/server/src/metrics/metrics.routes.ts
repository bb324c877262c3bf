import type { FastifyPluginAsync } from 'fastify';
import type { Metrics } from './metrics.ts';
import { hasMetricsToken } from './metrics-access.ts';

/**
 * `/metrics` on the HTTP app, registered only when METRICS_TOKEN is set: the app's port faces the
 * internet, so a scrape must carry `Authorization: Bearer <METRICS_TOKEN>`.
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; token: string }> = async (
  app,
  { metrics, token },
) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!hasMetricsToken(request.headers.authorization, token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ error: 'Metrics need the bearer token (METRICS_TOKEN)', code: 'UNAUTHENTICATED' });
    }
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).send(body);
  });
};
