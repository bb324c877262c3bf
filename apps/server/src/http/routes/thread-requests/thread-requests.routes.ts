import {
  createThreadRequestSchema,
  threadRequestListResponseSchema,
  threadRequestParamsSchema,
  threadRequestSchema,
} from '@bytegate/contracts/thread-requests';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../../../services/context.ts';
import { cancelThreadRequest } from '../../../services/thread-requests/cancel-thread-request.ts';
import { createThreadRequest } from '../../../services/thread-requests/create-thread-request.ts';
import { listThreadRequests } from '../../../services/thread-requests/list-thread-requests.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];

/** A customer's requests for more threads on their plans (support decides them in the back office). */
export const threadRequestsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);
  const { threadRequests } = ctx.config.rateLimits;

  app.get(
    '/thread-requests',
    {
      schema: {
        tags: ['plans'],
        summary: "The customer's thread requests, newest first, with their status and support's answer",
        security,
        response: { 200: threadRequestListResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => ({ requests: await listThreadRequests(ctx, { userId: getAuth(request).user.id }) }),
  );

  app.post(
    '/thread-requests',
    {
      schema: {
        tags: ['plans'],
        summary:
          'Ask support for more threads on a plan: how many (more than now, at most 10,000), what for, optionally the company and website; one pending request a plan',
        security,
        body: createThreadRequestSchema,
        response: {
          201: threadRequestSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      // Per customer: ask, cancel and ask again would otherwise fill support's queue.
      onRequest: app.rateLimit({
        max: threadRequests.max,
        timeWindow: threadRequests.windowMs,
        keyGenerator: (request) => `thread-requests:${getAuth(request).user.id}`,
      }),
    },
    async (request, reply) => {
      const { subUserId, ...asked } = request.body;
      const created = await createThreadRequest(ctx, {
        ...asked,
        userId: getAuth(request).user.id,
        planId: subUserId,
      });
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/thread-requests/:requestId/cancel',
    {
      schema: {
        tags: ['plans'],
        summary: 'Withdraw a pending thread request',
        security,
        params: threadRequestParamsSchema,
        response: {
          200: threadRequestSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request) =>
      cancelThreadRequest(ctx, { userId: getAuth(request).user.id, requestId: request.params.requestId }),
  );
};
