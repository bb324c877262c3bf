import { createHash } from 'node:crypto';
import {
  accountLinkMessages,
  forgotPasswordRequestSchema,
  forgotPasswordResponseSchema,
  resendVerificationResponseSchema,
  resetPasswordRequestSchema,
  resetPasswordResponseSchema,
  verifyEmailRequestSchema,
  verifyEmailResponseSchema,
} from '@bytegate/contracts/account-links';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestPasswordReset } from '../../../services/account-links/request-password-reset.ts';
import { resendEmailVerification } from '../../../services/account-links/resend-email-verification.ts';
import { resetPassword } from '../../../services/account-links/reset-password.ts';
import { verifyEmail } from '../../../services/account-links/verify-email.ts';
import type { MailContext } from '../../../services/context.ts';
import { currentSessionOf, getAuth, getOrigin } from '../../plugins/auth.ts';
import { keyedRateLimit, rateLimitError } from '../../rate-limits.ts';
import { errorResponseSchema } from '../errors.ts';

/** A rate-limit key for an email that keeps the address itself out of Redis. */
const emailKey = (email: string) => createHash('sha256').update(email).digest('hex').slice(0, 32);

/**
 * Mailed one-time links: asking for a password reset and setting the new password, proving an email
 * address (at sign-up, or a change of email) and asking for that link again.
 */
export const accountLinkRoutes: FastifyPluginAsyncZod<{ ctx: MailContext }> = async (app, { ctx }) => {
  const { rateLimits } = ctx.config;
  const resetsPerEmail = keyedRateLimit(
    app,
    rateLimits.passwordResetsPerEmail,
    (request) => `reset-email:${emailKey((request.body as { email: string }).email)}`,
    accountLinkMessages.tooManyResetRequests,
  );
  const followLinkLimit = app.rateLimit({
    max: rateLimits.accountLinksPerAddress.max,
    timeWindow: rateLimits.accountLinksPerAddress.windowMs,
    errorResponseBuilder: rateLimitError(accountLinkMessages.tooManyLinkAttempts),
  });

  app.post(
    '/auth/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a link to set a new password (the same answer whether or not the account exists)',
        description:
          'Answers 202 with the same message, in the same time, for any email: the link (valid 30 minutes, ' +
          'once; a new one ends the earlier ones) is mailed after the answer, and only to an account that ' +
          'exists and is neither deleted nor disabled. Limited per email and per client address.',
        body: forgotPasswordRequestSchema,
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
        errorResponseBuilder: rateLimitError(accountLinkMessages.tooManyResetRequests),
      }),
      preHandler: resetsPerEmail,
    },
    async (request, reply) => {
      await requestPasswordReset(ctx, { ...request.body, origin: getOrigin(request) });
      return reply.status(202).send({ success: true as const, message: accountLinkMessages.resetRequested });
    },
  );

  app.post(
    '/auth/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: "Set a new password with a reset link's token; signs the account out everywhere",
        description:
          'Uses the link up, revokes every session and every API key of the account (proxy credentials keep ' +
          'working) and ' +
          'signs nobody in: sign in with the new password. An unknown, used or expired link is 400 `INVALID_LINK`.',
        body: resetPasswordRequestSchema,
        response: {
          200: resetPasswordResponseSchema,
          400: errorResponseSchema,
          429: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      onRequest: followLinkLimit,
    },
    async (request) => {
      const { email } = await resetPassword(ctx, { ...request.body, origin: getOrigin(request) });
      return { success: true as const, email };
    },
  );

  app.post(
    '/auth/verify-email',
    {
      schema: {
        tags: ['auth'],
        summary: "Prove an email address with a verification link's token",
        description:
          "A link to the account's own address marks it verified; a link sent for a change of email makes " +
          "that address the account's (409 `EMAIL_TAKEN` if another account took it meanwhile) and revokes every " +
          "API key and every session but the one following the link, if it is the account's. An unknown, " +
          'used or expired link is 400 `INVALID_LINK`. Needs no sign-in: the link may be opened anywhere.',
        body: verifyEmailRequestSchema,
        response: {
          200: verifyEmailResponseSchema,
          400: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      onRequest: followLinkLimit,
    },
    async (request) => verifyEmail(ctx, { ...request.body, current: await currentSessionOf(ctx, request) }),
  );

  app.post(
    '/auth/verify-email/resend',
    {
      schema: {
        tags: ['auth'],
        summary: "Mail a new verification link to the account's address (earlier ones stop working)",
        security: [{ bearer: [] }],
        response: {
          200: resendVerificationResponseSchema,
          401: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      onRequest: app.requireAuth,
      preHandler: keyedRateLimit(
        app,
        rateLimits.verificationEmailsPerUser,
        (request) => `verify-mail-user:${getAuth(request).user.id}`,
        accountLinkMessages.tooManyVerificationEmails,
      ),
    },
    async (request) => {
      const { email } = await resendEmailVerification(ctx, { userId: getAuth(request).user.id });
      return { success: true as const, email };
    },
  );
};
