import { auditQuerySchema, auditResponseSchema } from '@bytegate/contracts/admin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listAuditLog } from '../../../services/back-office/list-audit-log.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { errorResponseSchema } from '../errors.ts';

export const auditRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'The audit log of staff actions, newest first, filtered by actor, action or target',
        security: [{ bearer: [] }],
        querystring: auditQuerySchema,
        response: {
          200: auditResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request) => listAuditLog(ctx, request.query),
  );
};
