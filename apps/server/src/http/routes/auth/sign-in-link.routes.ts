import { createHash } from 'node:crypto';
import {
  accountLinkMessages,
  forgotPasswordResponseSchema,
  signInLinkRequestSchema,
  signInWithLinkRequestSchema,
} from '@bytegate/contracts/account-links';
import { type AuthResponse, authResponseSchema, cookieAuthResponseSchema } from '@bytegate/contracts/auth';
import { twoFactorChallengeSchema } from '@bytegate/contracts/two-factor';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LoginThrottle } from '../../../services/accounts/login-throttle.ts';
import { csrfTokenFor } from '../../../services/accounts/session-tokens.ts';
import { requestSignInLink } from '../../../services/accounts/sign-in-links/request-sign-in-link.ts';
import { signInWithLink } from '../../../services/accounts/sign-in-links/sign-in-with-link.ts';
import type { MailContext } from '../../../services/context.ts';
import { deviceCookieName, getOrigin, setDeviceCookie, setSessionCookie } from '../../plugins/auth.ts';
import { keyedRateLimit, rateLimitError } from '../../rate-limits.ts';
import { errorResponseSchema } from '../errors.ts';

/** A rate-limit key for an email that keeps the address itself out of Redis. */
const emailKey = (email: string) => createHash('sha256').update(email).digest('hex').slice(0, 32);

/**
 * The way in for the owner of an account locked by failed sign-ins from many addresses (429
 * ACCOUNT_LOCKED at sign-in): ask for a one-time link by mail, and sign in with it. Asking is limited
 * like password reset requests (per email from anywhere, and per client address); following like the
 * other mailed links.
 */
export const signInLinkRoutes: FastifyPluginAsyncZod<{ ctx: MailContext; throttle: LoginThrottle }> = async (
  app,
  { ctx, throttle },
) => {
  const { rateLimits } = ctx.config;

  app.post(
    '/auth/sign-in-link',
    {
      schema: {
        tags: ['auth'],
        summary: "Mail a locked account's owner a one-time sign-in link (the same answer for any email)",
        description:
          'Answers 202 with the same message, in the same time, for any email. Only an account whose sign-ins ' +
          'from unknown browsers are paused by failed attempts (429 `ACCOUNT_LOCKED`) is mailed a link, valid ' +
          '15 minutes and once, with how many failed attempts came from how many addresses. Sign in with it ' +
          'at `POST /api/auth/sign-in-link/sign-in`.',
        body: signInLinkRequestSchema,
        response: {
          202: forgotPasswordResponseSchema,
          400: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      onRequest: app.rateLimit({
        max: rateLimits.passwordResetsPerAddress.max,
        timeWindow: rateLimits.passwordResetsPerAddress.windowMs,
        errorResponseBuilder: rateLimitError(accountLinkMessages.tooManySignInLinks),
      }),
      preHandler: keyedRateLimit(
        app,
        rateLimits.passwordResetsPerEmail,
        (request) => `sign-in-link-email:${emailKey((request.body as { email: string }).email)}`,
        accountLinkMessages.tooManySignInLinks,
      ),
    },
    async (request, reply) => {
      await requestSignInLink(ctx, { ...request.body, origin: getOrigin(request), throttle });
      return reply
        .status(202)
        .send({ success: true as const, message: accountLinkMessages.signInLinkRequested });
    },
  );

  app.post(
    '/auth/sign-in-link/sign-in',
    {
      schema: {
        tags: ['auth'],
        summary: "Sign in with a sign-in link's token; with two-factor on, answers a challenge",
        description:
          'Uses the link up. The answer is a sign-in\'s: the session (a cookie with `session: "cookie"`, and ' +
          "the browser is remembered as the account's, so the lock no longer holds it), or with two-factor " +
          'on a challenge for `POST /api/auth/login/two-factor`. An unknown, used or expired link is 400 `INVALID_LINK`.',
        body: signInWithLinkRequestSchema,
        response: {
          200: z.union([authResponseSchema, cookieAuthResponseSchema, twoFactorChallengeSchema]),
          400: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      onRequest: app.rateLimit({
        max: rateLimits.accountLinksPerAddress.max,
        timeWindow: rateLimits.accountLinksPerAddress.windowMs,
        errorResponseBuilder: rateLimitError(accountLinkMessages.tooManyLinkAttempts),
      }),
    },
    async (request, reply) => {
      const isBrowser = request.body.session === 'cookie';
      const outcome = await signInWithLink(ctx, {
        token: request.body.token,
        origin: getOrigin(request),
        isBrowser,
        deviceToken: request.cookies[deviceCookieName(ctx.config)],
      });
      if (outcome.kind === 'challenge') {
        const { kind: _kind, ...challenge } = outcome;
        return challenge;
      }
      const { deviceToken, token, user } = outcome;
      if (deviceToken) {
        setDeviceCookie(reply, ctx.config, deviceToken);
      }
      if (!isBrowser) {
        return { token, user } satisfies AuthResponse;
      }
      setSessionCookie(reply, ctx.config, token);
      return { user, csrfToken: csrfTokenFor(token) };
    },
  );
};
