import { okResponseSchema } from '@bytegate/contracts/auth';
import {
  googleConnectResponseSchema,
  googleMessages,
  setPasswordRequestSchema,
} from '@bytegate/contracts/google';
import { securityStatusResponseSchema } from '@bytegate/contracts/two-factor';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GoogleFlowError } from '../../../services/accounts/google/google-flow-error.ts';
import type { GoogleOpenId } from '../../../services/accounts/google/google-openid.ts';
import { startGoogleFlow } from '../../../services/accounts/google/start-google-flow.ts';
import { unlinkGoogle } from '../../../services/accounts/google/unlink-google.ts';
import { setPassword } from '../../../services/accounts/set-password.ts';
import { getSecurityStatus } from '../../../services/accounts/two-factor/get-security-status.ts';
import type { TwoFactorCheck } from '../../../services/accounts/two-factor/two-factor-check.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { DomainError } from '../../../services/domain-error.ts';
import { getAuth, getOrigin } from '../../plugins/auth.ts';
import { setGoogleFlowCookie } from '../auth/google.routes.ts';
import { errorResponseSchema } from '../errors.ts';

const refusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
  503: errorResponseSchema,
};

/**
 * User Settings → how the account signs in: connecting a Google account (started here, with the
 * session's CSRF token, and finished at Google's callback), disconnecting it (only while the account
 * has a password), and setting the first password of an account created with Google. Registered
 * inside the user settings routes: signed-in sessions only.
 */
export const signInMethodsRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  google: GoogleOpenId | null;
  twoFactor: TwoFactorCheck;
  limitPasswordChecks: (request: FastifyRequest) => Promise<void>;
}> = async (app, { ctx, google, twoFactor, limitPasswordChecks }) => {
  app.post(
    '/user-settings/google/connect',
    {
      schema: {
        tags: ['account'],
        summary:
          "Start connecting a Google account: answers Google's authorization URL to send the browser to; Google's callback links it and returns to User Settings",
        security: [{ bearer: [] }],
        response: { 200: googleConnectResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      if (!google) {
        throw new DomainError('NOT_FOUND', googleMessages.notConfigured);
      }
      try {
        const { authorizationUrl, state } = await startGoogleFlow(ctx, {
          google,
          purpose: 'link',
          userId: getAuth(request).user.id,
        });
        setGoogleFlowCookie(reply, ctx.config, state);
        reply.header('cache-control', 'no-store');
        return { authorizationUrl };
      } catch (error) {
        if (error instanceof GoogleFlowError) {
          throw new DomainError('UPSTREAM_UNAVAILABLE', googleMessages.errors.unavailable);
        }
        throw error;
      }
    },
  );

  app.delete(
    '/user-settings/google',
    {
      schema: {
        tags: ['account'],
        summary:
          'Disconnect the Google account (refused while the account has no password); answers the security status',
        security: [{ bearer: [] }],
        response: { 200: securityStatusResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const userId = getAuth(request).user.id;
      await unlinkGoogle(ctx, { userId, origin: getOrigin(request) });
      return getSecurityStatus(ctx, { userId });
    },
  );

  app.post(
    '/user-settings/password',
    {
      schema: {
        tags: ['account'],
        summary:
          'Set a first password, for an account created with Google (and a two-factor code while it is on); 409 when it has one',
        security: [{ bearer: [] }],
        body: setPasswordRequestSchema,
        response: { 200: okResponseSchema, ...refusals },
      },
      preHandler: limitPasswordChecks,
    },
    async (request) => {
      await setPassword(ctx, {
        userId: getAuth(request).user.id,
        ...request.body,
        twoFactor,
        origin: getOrigin(request),
      });
      return { success: true as const };
    },
  );
};
