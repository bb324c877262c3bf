import { profileResponseSchema, updateProfileRequestSchema } from '@bytegate/contracts/account';
import { accountLinkMessages } from '@bytegate/contracts/account-links';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cancelEmailChange } from '../../../services/accounts/cancel-email-change.ts';
import { getProfile } from '../../../services/accounts/get-profile.ts';
import type { TwoFactorCheck } from '../../../services/accounts/two-factor/two-factor-check.ts';
import { updateProfile } from '../../../services/accounts/update-profile.ts';
import type { MailContext } from '../../../services/context.ts';
import { getAuth, getOrigin } from '../../plugins/auth.ts';
import { keyedRateLimit } from '../../rate-limits.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];

/**
 * User Settings → Profile: read it, save it (a new email waits for the link mailed to it; the password
 * check it takes counts with the others), and withdraw a pending change of email.
 */
export const profileRoutes: FastifyPluginAsyncZod<{
  ctx: MailContext;
  limitPasswordChecks: (request: FastifyRequest) => Promise<void>;
  twoFactor: TwoFactorCheck;
}> = async (app, { ctx, limitPasswordChecks, twoFactor }) => {
  const emailChangesPerUser = keyedRateLimit(
    app,
    ctx.config.rateLimits.verificationEmailsPerUser,
    (request) => `email-change-user:${getAuth(request).user.id}`,
    accountLinkMessages.tooManyVerificationEmails,
  );

  app.get(
    '/user-settings/profile',
    {
      schema: {
        tags: ['account'],
        summary: 'The profile: names, company, email, and the new email a change waits on',
        security,
        response: { 200: profileResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => getProfile(ctx, { userId: getAuth(request).user.id }),
  );

  app.put(
    '/user-settings/profile',
    {
      schema: {
        tags: ['account'],
        summary: 'Save the profile; a new email (with the current password) is mailed a confirmation link',
        description:
          'First and last name and company change at once (an empty company clears it). An `email` other than ' +
          "the account's needs `currentPassword` (and `code` while two-factor is on): a link valid 24 hours goes to the new address and the current " +
          'one is told; the email changes when the link is followed (`pendingEmail` until then). An address ' +
          'another account holds is 409 `EMAIL_TAKEN`.',
        security,
        body: updateProfileRequestSchema,
        response: {
          200: profileResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      // Only a change of email checks a password and sends mail: only it is counted.
      preHandler: async (request) => {
        if (request.body.email !== getAuth(request).user.email) {
          await limitPasswordChecks(request);
          await emailChangesPerUser(request);
        }
      },
    },
    async (request) =>
      updateProfile(ctx, {
        userId: getAuth(request).user.id,
        firstName: request.body.firstName,
        lastName: request.body.lastName,
        company: request.body.company,
        email: request.body.email,
        currentPassword: request.body.currentPassword,
        code: request.body.code,
        twoFactor,
        origin: getOrigin(request),
      }),
  );

  app.delete(
    '/user-settings/email-change',
    {
      schema: {
        tags: ['account'],
        summary: 'Withdraw a pending change of email: its link stops working',
        security,
        response: { 200: profileResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => cancelEmailChange(ctx, { userId: getAuth(request).user.id }),
  );
};
