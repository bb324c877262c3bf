import {
  disableTwoFactorRequestSchema,
  recoveryCodesResponseSchema,
  securityStatusResponseSchema,
  startTwoFactorSetupRequestSchema,
  twoFactorCodeRequestSchema,
  twoFactorSetupResponseSchema,
  twoFactorStatusSchema,
} from '@bytegate/contracts/two-factor';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { confirmTwoFactorSetup } from '../../../services/accounts/two-factor/confirm-two-factor-setup.ts';
import { disableTwoFactor } from '../../../services/accounts/two-factor/disable-two-factor.ts';
import { getSecurityStatus } from '../../../services/accounts/two-factor/get-security-status.ts';
import { regenerateRecoveryCodes } from '../../../services/accounts/two-factor/regenerate-recovery-codes.ts';
import { startTwoFactorSetup } from '../../../services/accounts/two-factor/start-two-factor-setup.ts';
import type { TwoFactorCheck } from '../../../services/accounts/two-factor/two-factor-check.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth, getOrigin } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const refusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
  503: errorResponseSchema,
};

/**
 * User Settings → Security: the account's protection, and two-factor authentication's enrolment
 * (password, then a code from the app), new recovery codes (a code) and turning it off (password and a
 * code). Signed-in sessions only; steps that check the password count with the other password checks,
 * and wrong codes are counted per account by TwoFactorCheck. Secrets and codes are answered `no-store`.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  twoFactor: TwoFactorCheck;
  limitPasswordChecks: (request: FastifyRequest) => Promise<void>;
}> = async (app, { ctx, twoFactor, limitPasswordChecks }) => {
  app.get(
    '/user-settings/security',
    {
      schema: {
        tags: ['account'],
        summary:
          "How the account is protected: two-factor authentication's status, the Google account linked, whether it has a password",
        security: [{ bearer: [] }],
        response: { 200: securityStatusResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => getSecurityStatus(ctx, { userId: getAuth(request).user.id }),
  );

  app.post(
    '/user-settings/two-factor/setup',
    {
      schema: {
        tags: ['account'],
        summary:
          'Start two-factor enrolment (the password, unless the account has none): a new secret as otpauth URI, QR code and text',
        security: [{ bearer: [] }],
        body: startTwoFactorSetupRequestSchema,
        response: { 200: twoFactorSetupResponseSchema, ...refusals },
      },
      preHandler: limitPasswordChecks,
    },
    async (request, reply) => {
      const setup = await startTwoFactorSetup(ctx, {
        userId: getAuth(request).user.id,
        password: request.body.password,
      });
      reply.header('cache-control', 'no-store');
      return setup;
    },
  );

  app.post(
    '/user-settings/two-factor/confirm',
    {
      schema: {
        tags: ['account'],
        summary: 'Turn two-factor on with a code from the app; answers ten recovery codes, shown this once',
        security: [{ bearer: [] }],
        body: twoFactorCodeRequestSchema,
        response: { 200: recoveryCodesResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const answer = await confirmTwoFactorSetup(ctx, {
        userId: getAuth(request).user.id,
        code: request.body.code,
        twoFactor,
        origin: getOrigin(request),
      });
      reply.header('cache-control', 'no-store');
      return answer;
    },
  );

  app.post(
    '/user-settings/two-factor/recovery-codes',
    {
      schema: {
        tags: ['account'],
        summary: 'Replace the recovery codes (a code required); the old ones stop working',
        security: [{ bearer: [] }],
        body: twoFactorCodeRequestSchema,
        response: { 200: recoveryCodesResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const answer = await regenerateRecoveryCodes(ctx, {
        userId: getAuth(request).user.id,
        code: request.body.code,
        twoFactor,
        origin: getOrigin(request),
      });
      reply.header('cache-control', 'no-store');
      return answer;
    },
  );

  app.post(
    '/user-settings/two-factor/disable',
    {
      schema: {
        tags: ['account'],
        summary: 'Turn two-factor off (a code, and the password unless the account has none)',
        security: [{ bearer: [] }],
        body: disableTwoFactorRequestSchema,
        response: { 200: twoFactorStatusSchema, ...refusals },
      },
      preHandler: limitPasswordChecks,
    },
    async (request) =>
      disableTwoFactor(ctx, {
        userId: getAuth(request).user.id,
        password: request.body.password,
        code: request.body.code,
        twoFactor,
        origin: getOrigin(request),
      }),
  );
};
