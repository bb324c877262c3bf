import { changePasswordRequestSchema, deleteAccountRequestSchema } from '@bytegate/contracts/account';
import { okResponseSchema } from '@bytegate/contracts/auth';
import { waitMessages } from '@bytegate/contracts/messages';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changePassword } from '../../../services/accounts/change-password.ts';
import { deleteAccount } from '../../../services/accounts/delete-account.ts';
import type { GoogleOpenId } from '../../../services/accounts/google/google-openid.ts';
import type { TwoFactorCheck } from '../../../services/accounts/two-factor/two-factor-check.ts';
import type { MailContext } from '../../../services/context.ts';
import { clearSessionCookie, getAuth, getOrigin } from '../../plugins/auth.ts';
import { keyedRateLimit } from '../../rate-limits.ts';
import { errorResponseSchema } from '../errors.ts';
import { apiKeyRoutes } from './api-keys.routes.ts';
import { profileRoutes } from './profile.routes.ts';
import { signInMethodsRoutes } from './sign-in-methods.routes.ts';
import { twoFactorRoutes } from './two-factor.routes.ts';

export const userSettingsRoutes: FastifyPluginAsyncZod<{
  ctx: MailContext;
  twoFactor: TwoFactorCheck;
  /** Sign-in with Google's client, null while it is off. */
  google: GoogleOpenId | null;
}> = async (app, { ctx, twoFactor, google }) => {
  app.addHook('onRequest', app.requireAuth);

  // Each of these checks a password (argon2, deliberately slow): limited per user and per address, so
  // neither a stolen session nor one address can guess with them or keep the server's threads busy.
  const { rateLimits } = ctx.config;
  const perUser = keyedRateLimit(
    app,
    rateLimits.passwordChecksPerUser,
    (request) => `password-user:${getAuth(request).user.id}`,
    waitMessages.tooManyPasswordAttempts,
  );
  const perAddress = keyedRateLimit(
    app,
    rateLimits.passwordChecksPerAddress,
    (request) => `password-address:${request.ip}`,
    waitMessages.tooManyPasswordAttempts,
  );
  const limitPasswordChecks = async (request: FastifyRequest) => {
    await perUser(request);
    await perAddress(request);
  };

  // Registered inside: the sign-in check above applies to them, and they count in the same password limits.
  await app.register(apiKeyRoutes, { ctx, limitPasswordChecks, twoFactor });
  await app.register(twoFactorRoutes, { ctx, limitPasswordChecks, twoFactor });
  await app.register(profileRoutes, { ctx, limitPasswordChecks, twoFactor });
  await app.register(signInMethodsRoutes, { ctx, limitPasswordChecks, twoFactor, google });

  app.put(
    '/user-settings/password',
    {
      schema: {
        tags: ['account'],
        summary:
          'Change the password (and a two-factor code while it is on); every other session is signed out',
        security: [{ bearer: [] }],
        body: changePasswordRequestSchema,
        response: {
          200: okResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      preHandler: limitPasswordChecks,
    },
    async (request) => {
      const { user, session } = getAuth(request);
      await changePassword(ctx, {
        userId: user.id,
        sessionId: session.id,
        ...request.body,
        twoFactor,
        origin: getOrigin(request),
      });
      return { success: true as const };
    },
  );

  app.delete(
    '/user-settings/account',
    {
      schema: {
        tags: ['account'],
        summary: 'Delete the account (password, and a two-factor code while it is on); signs out everywhere',
        security: [{ bearer: [] }],
        body: deleteAccountRequestSchema,
        response: {
          200: okResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      preHandler: limitPasswordChecks,
    },
    async (request, reply) => {
      await deleteAccount(ctx, { userId: getAuth(request).user.id, ...request.body, twoFactor });
      clearSessionCookie(reply, ctx.config);
      return { success: true as const };
    },
  );
};
