import {
  type AuthResponse,
  authResponseSchema,
  cookieAuthResponseSchema,
  loginRequestSchema,
  meResponseSchema,
  okResponseSchema,
  type SessionMode,
  signupRequestSchema,
} from '@bytegate/contracts/auth';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { logIn } from '../../../services/accounts/log-in.ts';
import { logOut } from '../../../services/accounts/log-out.ts';
import { type FailureCountsFactory, LoginThrottle } from '../../../services/accounts/login-throttle.ts';
import { presentUser } from '../../../services/accounts/present-user.ts';
import { csrfTokenFor } from '../../../services/accounts/session-tokens.ts';
import { signUp } from '../../../services/accounts/sign-up.ts';
import type { ServiceContext } from '../../../services/context.ts';
import {
  clearSessionCookie,
  deviceCookieName,
  getAuth,
  getOrigin,
  setDeviceCookie,
  setSessionCookie,
} from '../../plugins/auth.ts';
import { rateLimitError } from '../../rate-limits.ts';
import { errorResponseSchema } from '../errors.ts';

export const authRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  /** Where failed sign-ins are counted: Redis with REDIS_URL (every API process), else this process. */
  loginFailureCounts?: FailureCountsFactory;
}> = async (app, { ctx, loginFailureCounts }) => {
  const { rateLimits } = ctx.config;
  /** A bearer token in the body, or (`session: 'cookie'`) the httpOnly cookie and the CSRF token. */
  const present = (reply: FastifyReply, result: AuthResponse, mode: SessionMode) => {
    if (mode !== 'cookie') {
      return result;
    }
    setSessionCookie(reply, ctx.config, result.token);
    return { user: result.user, csrfToken: csrfTokenFor(result.token) };
  };
  const throttle = new LoginThrottle(
    {
      perAccountAndAddress: rateLimits.loginFailuresPerAccountAndAddress,
      perAddress: rateLimits.loginFailuresPerAddress,
      perAccountUntrusted: rateLimits.loginFailuresPerAccount,
      perTrustedDevice: rateLimits.loginFailuresPerDevice,
    },
    loginFailureCounts,
  );

  app.post(
    '/auth/signup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account and sign in',
        body: signupRequestSchema,
        response: {
          201: z.union([authResponseSchema, cookieAuthResponseSchema]),
          400: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      onRequest: app.rateLimit({
        max: rateLimits.signup.max,
        timeWindow: rateLimits.signup.windowMs,
        errorResponseBuilder: rateLimitError(),
      }),
    },
    async (request, reply) => {
      const { deviceToken, ...result } = await signUp(ctx, {
        ...request.body,
        origin: getOrigin(request),
        isBrowser: request.body.session === 'cookie',
      });
      if (deviceToken) {
        setDeviceCookie(reply, ctx.config, deviceToken);
      }
      return reply.status(201).send(present(reply, result, request.body.session));
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        body: loginRequestSchema,
        response: {
          200: z.union([authResponseSchema, cookieAuthResponseSchema]),
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      // A flood guard on every attempt; failed attempts are counted by the throttle in logIn.
      onRequest: app.rateLimit({
        max: rateLimits.login.max,
        timeWindow: rateLimits.login.windowMs,
        errorResponseBuilder: rateLimitError(),
      }),
    },
    async (request, reply) => {
      const { deviceToken, ...result } = await logIn(ctx, {
        ...request.body,
        origin: getOrigin(request),
        isBrowser: request.body.session === 'cookie',
        deviceToken: request.cookies[deviceCookieName(ctx.config)],
        throttle,
      });
      if (deviceToken) {
        setDeviceCookie(reply, ctx.config, deviceToken);
      }
      return present(reply, result, request.body.session);
    },
  );

  app.get(
    '/auth/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        security: [{ bearer: [] }],
        response: { 200: meResponseSchema, 401: errorResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request) => {
      const { user, csrfToken } = getAuth(request);
      const me = { user: presentUser(user), role: user.role };
      return csrfToken ? { ...me, csrfToken } : me;
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: revokes the bearer token or the session cookie',
        security: [{ bearer: [] }],
        response: { 200: okResponseSchema, 401: errorResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request, reply) => {
      const { session, user } = getAuth(request);
      await logOut(ctx, { sessionId: session.id, userId: user.id });
      clearSessionCookie(reply, ctx.config);
      return { success: true as const };
    },
  );
};
