import {
  authResponseSchema,
  loginRequestSchema,
  meResponseSchema,
  okResponseSchema,
  signupRequestSchema,
} from '@bytegate/contracts/auth';
import { messages } from '@bytegate/contracts/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { logIn } from '../../../services/accounts/log-in.ts';
import { logOut } from '../../../services/accounts/log-out.ts';
import { presentUser } from '../../../services/accounts/present-user.ts';
import { signUp } from '../../../services/accounts/sign-up.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { AppError } from '../../app-error.ts';
import { getAuth, getOrigin } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

export const authRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const { rateLimits } = ctx.config;
  const loginPerEmailLimit = app.createRateLimit({
    max: rateLimits.loginPerEmail.max,
    timeWindow: rateLimits.loginPerEmail.windowMs,
    keyGenerator: (request) => `login-email:${(request.body as { email: string }).email}`,
  });

  app.post(
    '/auth/signup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account and sign in',
        body: signupRequestSchema,
        response: {
          201: authResponseSchema,
          400: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      onRequest: app.rateLimit({ max: rateLimits.signup.max, timeWindow: rateLimits.signup.windowMs }),
    },
    async (request, reply) => {
      const result = await signUp(ctx, { ...request.body, origin: getOrigin(request) });
      return reply.status(201).send(result);
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
          200: authResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      onRequest: app.rateLimit({
        max: rateLimits.login.max,
        timeWindow: rateLimits.login.windowMs,
        errorResponseBuilder: () => rateLimitError(messages.tooManyLoginAttempts),
      }),
      // Per email as well, so one account cannot be guessed at from many addresses.
      preHandler: async (request, reply) => {
        const limit = await loginPerEmailLimit(request);
        if (!limit.isAllowed && limit.isExceeded) {
          reply.header('retry-after', limit.ttlInSeconds);
          throw new AppError('RATE_LIMITED', messages.tooManyLoginAttempts);
        }
      },
    },
    async (request) => logIn(ctx, { ...request.body, origin: getOrigin(request) }),
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
    async (request) => ({ user: presentUser(getAuth(request).user) }),
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: revokes the bearer token',
        security: [{ bearer: [] }],
        response: { 200: okResponseSchema, 401: errorResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request) => {
      const { session, user } = getAuth(request);
      await logOut(ctx, { sessionId: session.id, userId: user.id });
      return { success: true as const };
    },
  );
};

function rateLimitError(message: string) {
  return Object.assign(new Error(message), { statusCode: 429 });
}
