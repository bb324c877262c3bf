import { orderIdSchema } from '@bytegate/contracts/billing';
import {
  bitcartInvoiceResponseSchema,
  createTopupRequestSchema,
  topupStatusResponseSchema,
} from '@bytegate/contracts/topup';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PaymentProviders } from '../../../payments/providers.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { createTopup } from '../../../services/topups/create-topup.ts';
import { handleWebhook } from '../../../services/topups/handle-webhook.ts';
import { getTopupStatusForClient } from '../../../services/topups/refresh-topup.ts';
import { requireProvider } from '../../../services/topups/require-provider.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';
import { webhookRouteLimits } from './webhook-limits.ts';

const security = [{ bearer: [] }];

/** Provider B (Bitcart): create an invoice for its checkout modal, poll its status, receive its IPNs. */
export const bitcartRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  payments: PaymentProviders;
}> = async (app, { ctx, payments }) => {
  app.post(
    '/topup/bitcart/create-invoice',
    {
      schema: {
        tags: ['top-up'],
        summary: 'Open a Bitcart invoice for a top-up (shown in the Bitcart checkout modal)',
        security,
        body: createTopupRequestSchema,
        response: { 201: bitcartInvoiceResponseSchema, 400: errorResponseSchema, 503: errorResponseSchema },
      },
      onRequest: app.requireAuth,
    },
    async (request, reply) => {
      const provider = requireProvider(payments, 'bitcart');
      const topup = await createTopup(ctx, provider, {
        userId: getAuth(request).user.id,
        amountCents: request.body.amount,
        paymentMethod: request.body.paymentMethod,
      });
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
    '/topup/bitcart/status',
    {
      schema: {
        tags: ['top-up'],
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

  // Bitcart's IPN is unsigned and never retried: it only names an invoice to re-read. Always 200.
  app.post(
    '/topup/bitcart/webhook',
    {
      schema: {
        tags: ['top-up'],
        summary: 'Bitcart IPN: {id, status}; the invoice is re-read from Bitcart before anything changes',
        body: z.unknown(),
      },
      ...webhookRouteLimits(app, ctx),
    },
    async (request) => {
      const provider = requireProvider(payments, 'bitcart');
      const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<
        string,
        unknown
      >;
      const outcome = await handleWebhook(ctx, provider, {
        rawBody: JSON.stringify(request.body ?? null),
        headers: request.headers,
        sourceIp: request.ip ?? null,
        isSignatureValid: null,
        claimedInvoiceId: typeof body.id === 'string' ? body.id.slice(0, 64) : null,
        claimedOrderId: null,
        claimedStatus: typeof body.status === 'string' ? body.status.slice(0, 32) : null,
      });
      return { ok: true, outcome };
    },
  );
};
