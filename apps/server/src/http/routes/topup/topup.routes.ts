import { orderIdSchema } from '@bytegate/contracts/billing';
import {
  bitcartInvoiceResponseSchema,
  createTopupRequestSchema,
  cryptomusInvoiceResponseSchema,
  topupStatusResponseSchema,
} from '@bytegate/contracts/topup';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type PaymentProvider,
  PROVIDER_NAMES,
  PROVIDER_TRAITS,
  type ProviderName,
} from '../../../payments/provider.ts';
import type { PaymentProviders } from '../../../payments/providers.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { DomainError } from '../../../services/domain-error.ts';
import { createTopup } from '../../../services/topups/create-topup.ts';
import { handleWebhook } from '../../../services/topups/handle-webhook.ts';
import { getTopupStatusForClient } from '../../../services/topups/refresh-topup.ts';
import { requireProvider } from '../../../services/topups/require-provider.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';
import { WEBHOOK_BODY_LIMIT_BYTES, webhookRouteLimits } from './webhook-limits.ts';

const security = [{ bearer: [] }];
const tags = ['top-up'];

const webhookSummaries: Record<ProviderName, string> = {
  cryptomus: 'Cryptomus webhook (signed with the payment API key)',
  bitcart: 'Bitcart IPN: {id, status}; the invoice is re-read from Bitcart before anything changes',
};

type TopupOptions = { ctx: ServiceContext; payments: PaymentProviders };

/**
 * Top-ups through the payment providers, at the spec's paths: per provider, create an invoice, poll its
 * status, and receive its webhooks. A provider this server does not run answers 503
 * PAYMENT_PROVIDER_UNAVAILABLE on each of its routes.
 */
export const topupRoutes: FastifyPluginAsyncZod<TopupOptions> = async (app, { ctx, payments }) => {
  const startTopup = (
    request: FastifyRequest,
    provider: PaymentProvider,
    body: z.output<typeof createTopupRequestSchema>,
  ) =>
    createTopup(ctx, provider, {
      userId: getAuth(request).user.id,
      amountCents: body.amount,
      paymentMethod: body.paymentMethod,
    });

  app.post(
    '/topup/cryptomus/create-invoice',
    {
      schema: {
        tags,
        summary: 'Open a Cryptomus invoice for a top-up',
        security,
        body: createTopupRequestSchema,
        response: {
          201: cryptomusInvoiceResponseSchema,
          400: errorResponseSchema,
          403: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      onRequest: app.requireAuth,
    },
    async (request, reply) => {
      const topup = await startTopup(request, requireProvider(payments, 'cryptomus'), request.body);
      return reply.status(201).send({
        invoiceUrl: topup.checkoutUrl,
        url: topup.checkoutUrl,
        orderId: topup.orderId,
        order_id: topup.orderId,
        status: topup.rawStatus,
      });
    },
  );

  app.post(
    '/topup/bitcart/create-invoice',
    {
      schema: {
        tags,
        summary: 'Open a Bitcart invoice for a top-up (shown in the Bitcart checkout modal)',
        security,
        body: createTopupRequestSchema,
        response: {
          201: bitcartInvoiceResponseSchema,
          400: errorResponseSchema,
          403: errorResponseSchema,
          503: errorResponseSchema,
        },
      },
      onRequest: app.requireAuth,
    },
    async (request, reply) => {
      const provider = requireProvider(payments, 'bitcart');
      const topup = await startTopup(request, provider, request.body);
      return reply.status(201).send({
        id: topup.invoiceId,
        modal_script_url: provider.modalScriptUrl(),
        invoiceUrl: topup.checkoutUrl,
        url: topup.checkoutUrl,
        orderId: topup.orderId,
        order_id: topup.orderId,
        status: topup.rawStatus.toUpperCase(),
      });
    },
  );

  app.get(
    '/topup/cryptomus/status/:orderId',
    {
      schema: {
        tags,
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

  app.get(
    '/topup/bitcart/status',
    {
      schema: {
        tags,
        summary: "A Bitcart top-up's status (upper case); remote=1 re-checks with Bitcart",
        security,
        querystring: z.object({ order_id: orderIdSchema, remote: z.enum(['0', '1']).optional() }),
        response: { 200: topupStatusResponseSchema, 404: errorResponseSchema, 503: errorResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request) =>
      getTopupStatusForClient(ctx, requireProvider(payments, 'bitcart'), {
        userId: getAuth(request).user.id,
        orderLabel: request.query.order_id,
        isRemoteCheck: request.query.remote !== '0',
        casing: 'upper',
      }),
  );

  for (const name of PROVIDER_NAMES) {
    await registerWebhook(app, name, { ctx, payments });
  }
};

/**
 * `POST /topup/<provider>/webhook`. Every webhook is stored and answered 200 with its outcome; one whose
 * signature fails is stored too, then refused. The provider's traits say whether the body arrives as
 * text (a signature is checked over the exact bytes) or parsed JSON; a provider this server does not
 * run has the same route, answering 503.
 */
async function registerWebhook(app: FastifyInstance, name: ProviderName, { ctx, payments }: TopupOptions) {
  const bodyFormat = PROVIDER_TRAITS[name].webhookBody;
  await app.register(async (scope) => {
    if (bodyFormat === 'text') {
      scope.addContentTypeParser(
        'application/json',
        { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
        (_request, body, done) => done(null, body),
      );
    }
    scope.post(
      `/topup/${name}/webhook`,
      {
        schema: {
          tags,
          summary: webhookSummaries[name],
          ...(bodyFormat === 'json' ? { body: z.unknown() } : {}),
        },
        ...webhookRouteLimits(scope, ctx),
      },
      async (request) => {
        const provider = requireProvider(payments, name);
        const reading = provider.readWebhook(request.body);
        const outcome = await handleWebhook(ctx, provider, {
          ...reading,
          headers: request.headers,
          sourceIp: request.ip ?? null,
        });
        if (reading.isSignatureValid === false) {
          throw new DomainError('VALIDATION_FAILED', 'Invalid signature');
        }
        return { ok: true, outcome };
      },
    );
  });
}
