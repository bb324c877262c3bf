import { apiKeySchema, createApiKeyBodySchema, createdApiKeySchema } from '@bytegate/contracts/api-keys';
import { okResponseSchema } from '@bytegate/contracts/auth';
import { text } from '@bytegate/contracts/text';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TwoFactorCheck } from '../../../services/accounts/two-factor/two-factor-check.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../services/api-keys/api-keys.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth, getOrigin } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

/**
 * User Settings → API keys: list, create (with the password, counted with the other password checks),
 * revoke. Signed-in sessions only: a key can never create or see keys (requireAuth refuses keys).
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  limitPasswordChecks: (request: FastifyRequest) => Promise<void>;
  twoFactor: TwoFactorCheck;
}> = async (app, { ctx, limitPasswordChecks, twoFactor }) => {
  app.get(
    '/user-settings/api-keys',
    {
      schema: {
        tags: ['account'],
        summary: "The account's API keys (never their secrets), newest first",
        security: [{ bearer: [] }],
        response: { 200: z.object({ keys: z.array(apiKeySchema) }), 401: errorResponseSchema },
      },
    },
    async (request) => ({ keys: await listApiKeys(ctx, { userId: getAuth(request).user.id }) }),
  );

  app.post(
    '/user-settings/api-keys',
    {
      schema: {
        tags: ['account'],
        summary:
          'Create an API key (password, and a two-factor code while it is on); the answer holds its secret, shown this once',
        security: [{ bearer: [] }],
        body: createApiKeyBodySchema,
        response: {
          201: createdApiKeySchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      preHandler: limitPasswordChecks,
    },
    async (request, reply) => {
      const { name, scopes, expires_in_days: expiresInDays, password, code } = request.body;
      const created = await createApiKey(ctx, {
        userId: getAuth(request).user.id,
        name,
        scopes,
        expiresInDays,
        password,
        code,
        twoFactor,
        origin: getOrigin(request),
      });
      // The secret must not linger in any cache between here and the person who asked.
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/user-settings/api-keys/:id',
    {
      schema: {
        tags: ['account'],
        summary: 'Revoke an API key: requests with it are refused at once',
        security: [{ bearer: [] }],
        params: z.object({ id: text('API key id').max(64) }),
        response: { 200: okResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      await revokeApiKey(ctx, {
        userId: getAuth(request).user.id,
        keyId: request.params.id,
        origin: getOrigin(request),
      });
      return { success: true as const };
    },
  );
};
