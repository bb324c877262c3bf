import {
  adminThreadRequestResponseSchema,
  adminThreadRequestsQuerySchema,
  adminThreadRequestsResponseSchema,
  approveThreadRequestSchema,
  declineThreadRequestSchema,
  threadRequestParamsSchema,
} from '@bytegate/contracts/thread-requests';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import { approveThreadRequest } from '../../../services/back-office/thread-requests/approve-thread-request.ts';
import { declineThreadRequest } from '../../../services/back-office/thread-requests/decline-thread-request.ts';
import { listThreadRequestQueue } from '../../../services/back-office/thread-requests/list-thread-request-queue.ts';
import type { MailContext, ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const decisionRefusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  503: errorResponseSchema,
};

/** The queue of customers' thread requests, and support's decisions on them (audited, mailed). */
export const threadRequestsAdminRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (
  app,
  { ctx: serviceCtx },
) => {
  const { mailer } = serviceCtx;
  if (!mailer) {
    throw new Error('thread request decisions need a mailer in their context (buildApp makes one)');
  }
  const ctx: MailContext = { ...serviceCtx, mailer };
  app.get(
    '/thread-requests',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Thread requests, pending first (oldest first), or of one status; with the customer, the plan and its usage',
        security: [{ bearer: [] }],
        querystring: adminThreadRequestsQuerySchema,
        response: {
          200: adminThreadRequestsResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request) => listThreadRequestQueue(ctx, request.query),
  );

  app.post(
    '/thread-requests/:requestId/approve',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Approve a request: the plan's thread limit becomes the granted number at once (the gateway obeys within 2 s); the customer is mailed",
        security: [{ bearer: [] }],
        params: threadRequestParamsSchema,
        body: approveThreadRequestSchema,
        response: { 200: adminThreadRequestResponseSchema, ...decisionRefusals },
      },
    },
    async (request) => ({
      request: await approveThreadRequest(ctx, {
        requestId: request.params.requestId,
        grantedThreads: request.body.grantedThreads,
        message: request.body.message,
        actor: staffActorOf(getAuth(request).user),
      }),
    }),
  );

  app.post(
    '/thread-requests/:requestId/decline',
    {
      schema: {
        tags: ['admin'],
        summary: 'Decline a request with a message the customer reads in the dashboard and by mail',
        security: [{ bearer: [] }],
        params: threadRequestParamsSchema,
        body: declineThreadRequestSchema,
        response: { 200: adminThreadRequestResponseSchema, ...decisionRefusals },
      },
    },
    async (request) => ({
      request: await declineThreadRequest(ctx, {
        requestId: request.params.requestId,
        message: request.body.message,
        actor: staffActorOf(getAuth(request).user),
      }),
    }),
  );
};
