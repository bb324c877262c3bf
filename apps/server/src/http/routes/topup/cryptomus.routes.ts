import { orderIdSchema } from '@bytegate/contracts/billing';
import {
  createTopupRequestSchema,
  cryptomusInvoiceResponseSchema,
  topupStatusResponseSchema,
} from '@bytegate/contracts/topup';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { verifyCryptomusWebhook } from '../../../payments/cryptomus/sign.ts';
import type { PaymentProviders } from '../../../payments/providers.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { createTopup } from '../../../services/topups/create-topup.ts';
import { handleWebhook } from '../../../services/topups/handle-webhook.ts';
import { getTopupStatusForClient } from '../../../services/topups/refresh-topup.ts';
import { requireProvider } from '../../../services/topups/require-provider.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';
import { WEBHOOK_BODY_LIMIT_BYTES, webhookRouteLimits } from './webhook-limits.ts';

const security = [{ bearer: [] }];

/** Provider A (Cryptomus): create an invoice, poll its status, receive its signed webhooks. */
export const cryptomusRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  payments: PaymentProviders;
}> = async (app, { ctx, payments }) => {
  app.post(
    '/topup/cryptomus/create-invoice',
    {
      schema: {
        tags: ['top-up'],
        summary: 'Open a Cryptomus invoice for a top-up',
        security,
        body: createTopupRequestSchema,
        response: { 201: cryptomusInvoiceResponseSchema, 400: errorResponseSchema, 503: errorResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request, reply) => {
      const topup = await createTopup(ctx, requireProvider(payments, 'cryptomus'), {
        userId: getAuth(request).user.id,
        amountCents: request.body.amount,
        paymentMethod: request.body.paymentMethod,
      });
      return reply.status(201).send({
        invoiceUrl: topup.checkoutUrl,
        url: topup.checkoutUrl,
        orderId: topup.orderId,
        order_id: topup.orderId,
        status: topup.rawStatus,
      });
    },
  );

  app.get(
    '/topup/cryptomus/status/:orderId',
    {
      schema: {
        tags: ['top-up'],
        summary: "A Cryptomus top-up's status (lower case), re-checked with the provider",
        security,
        params: z.object({ orderId: orderIdSchema }),
        response: { 200: topupStatusResponseSchema, 404: errorResponseSchema, 503: errorResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request) =>
      getTopupStatusForClient(ctx, requireProvider(payments, 'cryptomus'), {
        userId: getAuth(request).user.id,
        orderLabel: request.params.orderId,
        casing: 'lower',
      }),
  );

  // The webhook needs the exact bytes to check the signature, so this scope reads JSON as text.
  await app.register(async (webhooks) => {
    webhooks.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
      (_r, body, done) => done(null, body),
    );
    webhooks.post(
      '/topup/cryptomus/webhook',
      {
        schema: { tags: ['top-up'], summary: 'Cryptomus webhook (signed with the payment API key)' },
        ...webhookRouteLimits(webhooks, ctx),
      },
      async (request, reply) => {
        const provider = requireProvider(payments, 'cryptomus');
        const rawBody = typeof request.body === 'string' ? request.body : '';
        const verified = verifyCryptomusWebhook(rawBody, payments.cryptomusWebhookKey ?? '');
        const claimed = (verified ?? safeJson(rawBody)) as Record<string, unknown>;
        const outcome = await handleWebhook(ctx, provider, {
          rawBody,
          headers: request.headers,
          sourceIp: request.ip ?? null,
          isSignatureValid: verified !== null,
          claimedInvoiceId: typeof claimed.uuid === 'string' ? claimed.uuid : null,
          claimedOrderId: typeof claimed.order_id === 'string' ? claimed.order_id : null,
          claimedStatus: typeof claimed.status === 'string' ? claimed.status : null,
        });
        if (verified === null) {
          return reply.status(400).send({ error: 'Invalid signature', code: 'VALIDATION_FAILED' });
        }
        return reply.status(200).send({ ok: true, outcome });
      },
    );
  });
};

function safeJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
