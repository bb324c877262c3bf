import { changePasswordRequestSchema, deleteAccountRequestSchema } from '@bytegate/contracts/account';
import { okResponseSchema } from '@bytegate/contracts/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changePassword } from '../../../services/accounts/change-password.ts';
import { deleteAccount } from '../../../services/accounts/delete-account.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

export const userSettingsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);

  app.put(
    '/user-settings/password',
    {
      schema: {
        tags: ['account'],
        summary: 'Change the password; every other session is signed out',
        security: [{ bearer: [] }],
        body: changePasswordRequestSchema,
        response: {
          200: okResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const { user, session } = getAuth(request);
      await changePassword(ctx, { userId: user.id, sessionId: session.id, ...request.body });
      return { success: true as const };
    },
  );

  app.delete(
    '/user-settings/account',
    {
      schema: {
        tags: ['account'],
        summary: 'Delete the account (password required); signs out everywhere',
        security: [{ bearer: [] }],
        body: deleteAccountRequestSchema,
        response: {
          200: okResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request) => {
      await deleteAccount(ctx, { userId: getAuth(request).user.id, password: request.body.password });
      return { success: true as const };
    },
  );
};
