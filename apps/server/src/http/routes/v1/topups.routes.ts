import { text } from '@bytegate/contracts/text';
import { topupAmountSchema } from '@bytegate/contracts/topup';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROVIDER_NAMES } from '../../../payments/provider.ts';
import type { PaymentProviders } from '../../../payments/providers.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { createTopup } from '../../../services/topups/create-topup.ts';
import { requireProvider } from '../../../services/topups/require-provider.ts';
import { errorResponseSchema } from '../errors.ts';
import { getApiKey } from './api-key-auth.ts';
import { V1_ERRORS, V1_SECURITY } from './v1-shapes.ts';

/** Top-up invoices for the balance, opened at a payment provider for an automation or a reseller. */
export const v1TopupRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  payments: PaymentProviders;
}> = async (app, { ctx, payments }) => {
  app.post(
    '/topups',
    {
      config: { scope: 'billing' },
      schema: {
        tags: ['public API v1'],
        summary:
          'Open a top-up invoice: pay it at `checkout_url`; the balance is credited once the provider confirms',
        description:
          'Scope `billing`. `amount_usd` in dollars (up to two decimals, within the top-up limits). The order stays ' +
          "`pending` until the provider confirms payment; nothing is credited before. While the account's email " +
          'waits for its verification link (EMAIL_VERIFICATION required) the answer is 403 `EMAIL_NOT_VERIFIED`.',
        security: V1_SECURITY,
        body: z
          .object({
            provider: z.enum(PROVIDER_NAMES),
            amount_usd: topupAmountSchema,
            payment_method: text('Payment method', { shouldTrim: true }).max(32).optional(),
          })
          .meta({ examples: [{ provider: 'cryptomus', amount_usd: 50 }] }),
        response: {
          201: z.object({
            order_id: z.string(),
            provider: z.enum(PROVIDER_NAMES),
            amount_usd: z.number(),
            checkout_url: z.string(),
            status: z.literal('pending'),
          }),
          400: errorResponseSchema,
          503: errorResponseSchema,
          ...V1_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const { user, key } = getApiKey(request);
      const { provider: name, amount_usd: amountCents, payment_method: paymentMethod } = request.body;
      const topup = await createTopup(ctx, requireProvider(payments, name), {
        userId: user.id,
        amountCents,
        paymentMethod,
        apiKeyName: key.name,
      });
      return reply.code(201).send({
        order_id: topup.orderId,
        provider: name,
        amount_usd: amountCents / 100,
        checkout_url: topup.checkoutUrl,
        status: 'pending' as const,
      });
    },
  );
};
