import {
  type AuthResponse,
  authResponseSchema,
  cookieAuthResponseSchema,
  loginRequestSchema,
  loginTwoFactorRequestSchema,
  meResponseSchema,
  okResponseSchema,
  type SessionMode,
  signupRequestSchema,
} from '@bytegate/contracts/auth';
import { twoFactorChallengeSchema } from '@bytegate/contracts/two-factor';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { completeTwoFactorSignIn } from '../../../services/accounts/complete-two-factor-sign-in.ts';
import { logIn } from '../../../services/accounts/log-in.ts';
import { logOut } from '../../../services/accounts/log-out.ts';
import { type FailureCountsFactory, LoginThrottle } from '../../../services/accounts/login-throttle.ts';
import { presentUser } from '../../../services/accounts/present-user.ts';
import { csrfTokenFor } from '../../../services/accounts/session-tokens.ts';
import { signUp } from '../../../services/accounts/sign-up.ts';
import type { TwoFactorCheck } from '../../../services/accounts/two-factor/two-factor-check.ts';
import type { MailContext } from '../../../services/context.ts';
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
import { signInLinkRoutes } from './sign-in-link.routes.ts';

export const authRoutes: FastifyPluginAsyncZod<{
  ctx: MailContext;
  /** Where failed sign-ins are counted: Redis with REDIS_URL (every API process), else this process. */
  loginFailureCounts?: FailureCountsFactory;
  /** Checks two-factor codes, counting wrong ones per account (shared with user settings). */
  twoFactor: TwoFactorCheck;
}> = async (app, { ctx, loginFailureCounts, twoFactor }) => {
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
  // The locked account's way in: a mailed one-time link (it reads the same throttle's lock).
  await app.register(signInLinkRoutes, { ctx, throttle });

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

  // A flood guard on every sign-in request; failed attempts are counted by the throttle in logIn, and
  // wrong two-factor codes per challenge and per account.
  const limitSignIns = app.rateLimit({
    max: rateLimits.login.max,
    timeWindow: rateLimits.login.windowMs,
    errorResponseBuilder: rateLimitError(),
  });

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Sign in with email and password; with two-factor on, answers a challenge for POST /auth/login/two-factor',
        body: loginRequestSchema,
        response: {
          200: z.union([authResponseSchema, cookieAuthResponseSchema, twoFactorChallengeSchema]),
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      onRequest: limitSignIns,
    },
    async (request, reply) => {
      const outcome = await logIn(ctx, {
        ...request.body,
        origin: getOrigin(request),
        isBrowser: request.body.session === 'cookie',
        deviceToken: request.cookies[deviceCookieName(ctx.config)],
        throttle,
      });
      if (outcome.kind === 'challenge') {
        // No session and no cookie yet: they come with the code.
        const { kind: _kind, ...challenge } = outcome;
        return challenge;
      }
      const { deviceToken, token, user } = outcome;
      if (deviceToken) {
        setDeviceCookie(reply, ctx.config, deviceToken);
      }
      return present(reply, { token, user }, request.body.session);
    },
  );

  app.post(
    '/auth/login/two-factor',
    {
      schema: {
        tags: ['auth'],
        summary: "Finish a sign-in with two-factor on: the challenge's token and an app or recovery code",
        body: loginTwoFactorRequestSchema,
        response: {
          200: z.union([authResponseSchema, cookieAuthResponseSchema]),
          400: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      onRequest: limitSignIns,
    },
    async (request, reply) => {
      const { session } = request.body;
      const { deviceToken, token, user, isBrowser } = await completeTwoFactorSignIn(ctx, {
        challengeToken: request.body.challengeToken,
        code: request.body.code,
        origin: getOrigin(request),
        isBrowser: session === undefined ? undefined : session === 'cookie',
        deviceToken: request.cookies[deviceCookieName(ctx.config)],
        twoFactor,
      });
      if (deviceToken) {
        setDeviceCookie(reply, ctx.config, deviceToken);
      }
      return present(reply, { token, user }, isBrowser ? 'cookie' : 'token');
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
      await logOut(ctx, { sessionId: session.id, userId: user.id, origin: getOrigin(request) });
      clearSessionCookie(reply, ctx.config);
      return { success: true as const };
    },
  );
};
