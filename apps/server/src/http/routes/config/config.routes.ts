import { publicConfigSchema } from '@bytegate/contracts/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../../config.ts';
import type { PaymentProviders } from '../../../payments/providers.ts';

export const configRoutes: FastifyPluginAsyncZod<{ config: Config; payments: PaymentProviders }> = async (
  app,
  { config, payments },
) => {
  app.get(
    '/config',
    {
      schema: {
        tags: ['meta'],
        summary: 'Public settings the web app needs before sign-in',
        response: { 200: publicConfigSchema },
      },
    },
    async () => ({
      recaptchaSiteKey: config.recaptcha?.siteKey ?? null,
      googleSignIn: config.google !== null,
      paymentsSandbox: payments.hasSandbox,
      paymentProviders: payments.modes,
      emailVerificationRequired: config.emailVerification === 'required',
      gateway: {
        host: config.gateway.host,
        ip: config.gateway.ip ?? null,
        httpPort: config.gateway.httpPort,
        socksPort: config.gateway.socksPort,
        stickyPorts: config.gateway.stickyPorts,
      },
    }),
  );
};
