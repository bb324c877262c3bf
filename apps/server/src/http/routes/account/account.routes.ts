import { balanceResponseSchema } from '@bytegate/contracts/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/account/balance',
    {
      schema: {
        tags: ['account'],
        summary: 'The account balance',
        security: [{ bearer: [] }],
        response: { 200: balanceResponseSchema, 401: errorResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request) => {
      const { balanceCents } = getAuth(request).user;
      return { balance: balanceCents / 100, balanceCents };
    },
  );
};
