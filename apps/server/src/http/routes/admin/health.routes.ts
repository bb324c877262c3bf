import { fleetHealthResponseSchema } from '@bytegate/contracts/admin-health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../../../services/context.ts';
import { getFleetHealth } from '../../../services/fleet-health/get-fleet-health.ts';
import { errorResponseSchema } from '../errors.ts';

/** The abuse and health view: top plans by traffic and errors, refusals by code, open connections. */
export const healthRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The last 24 h: top plans by traffic and errors, refusals by code, blocked hits; connections open now',
        security: [{ bearer: [] }],
        response: { 200: fleetHealthResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async () => getFleetHealth(ctx),
  );
};
