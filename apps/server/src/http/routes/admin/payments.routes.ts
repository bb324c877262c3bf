import {
  adminOrderParamsSchema,
  approveTopupRequestSchema,
  checkTopupResponseSchema,
  paymentDetailResponseSchema,
  paymentsQuerySchema,
  paymentsResponseSchema,
  refundPreviewSchema,
  refundRequestSchema,
  refundResponseSchema,
  rejectTopupRequestSchema,
} from '@bytegate/contracts/admin-payments';
import { parseDollarsToCents } from '@bytegate/contracts/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PaymentProviders } from '../../../payments/providers.ts';
import { checkTopup } from '../../../services/back-office/check-topup.ts';
import { getCustomerDetail } from '../../../services/back-office/get-customer-detail.ts';
import { getPayment, listPayments } from '../../../services/back-office/list-payments.ts';
import { previewRefund, refundOrder } from '../../../services/back-office/refund-order.ts';
import { approveTopup, rejectTopup } from '../../../services/back-office/review-topup.ts';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const refusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};

/** The back office's money: every payment, the review queue's decisions, provider checks and refunds. */
export const paymentsRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  payments: PaymentProviders;
}> = async (app, { ctx, payments }) => {
  app.get(
    '/payments',
    {
      schema: {
        tags: ['admin'],
        summary: "Every customer's top-ups and purchases, newest first, by status, provider, kind or search",
        security: [{ bearer: [] }],
        querystring: paymentsQuerySchema,
        response: {
          200: paymentsResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request) => listPayments(ctx, request.query),
  );

  app.get(
    '/payments/:orderId',
    {
      schema: {
        tags: ['admin'],
        summary: "A payment with the provider's webhooks for its invoice",
        security: [{ bearer: [] }],
        params: adminOrderParamsSchema,
        response: { 200: paymentDetailResponseSchema, ...refusals },
      },
    },
    async (request) => getPayment(ctx, { orderLabel: request.params.orderId }),
  );

  app.post(
    '/payments/:orderId/approve',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Approve a top-up held for review: credit what arrived, at most the invoice (support: $100 in 24 hours)',
        security: [{ bearer: [] }],
        params: adminOrderParamsSchema,
        body: approveTopupRequestSchema,
        response: { 200: paymentDetailResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const orderLabel = request.params.orderId;
      await approveTopup(ctx, {
        orderLabel,
        // The schema has checked the amount parses to positive cents.
        amountCents: parseDollarsToCents(request.body.amount) ?? 0,
        reason: request.body.reason,
        actor: staffActorOf(getAuth(request).user),
      });
      return getPayment(ctx, { orderLabel });
    },
  );

  app.post(
    '/payments/:orderId/reject',
    {
      schema: {
        tags: ['admin'],
        summary: 'Reject a top-up held for review: it fails and credits nothing',
        security: [{ bearer: [] }],
        params: adminOrderParamsSchema,
        body: rejectTopupRequestSchema,
        response: { 200: paymentDetailResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const orderLabel = request.params.orderId;
      await rejectTopup(ctx, {
        orderLabel,
        reason: request.body.reason,
        actor: staffActorOf(getAuth(request).user),
      });
      return getPayment(ctx, { orderLabel });
    },
  );

  app.post(
    '/payments/:orderId/check',
    {
      schema: {
        tags: ['admin'],
        summary: "Ask the provider for a top-up's invoice now and apply its answer, as reconciling does",
        security: [{ bearer: [] }],
        params: adminOrderParamsSchema,
        response: { 200: checkTopupResponseSchema, ...refusals, 503: errorResponseSchema },
      },
    },
    async (request) =>
      checkTopup(ctx, payments, {
        orderLabel: request.params.orderId,
        actor: staffActorOf(getAuth(request).user),
      }),
  );

  app.get(
    '/orders/:orderId/refund',
    {
      schema: {
        tags: ['admin'],
        summary: 'Exactly what refunding an order would move now, or why it cannot be refunded',
        security: [{ bearer: [] }],
        params: adminOrderParamsSchema,
        response: { 200: refundPreviewSchema, ...refusals },
      },
    },
    async (request) => {
      const { userId: _owner, ...preview } = await previewRefund(ctx, {
        orderLabel: request.params.orderId,
        actor: staffActorOf(getAuth(request).user),
      });
      return preview;
    },
  );

  app.post(
    '/orders/:orderId/refund',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Refund an order once: a purchase's unused part within 7 days, or a top-up refunded outside the product",
        security: [{ bearer: [] }],
        params: adminOrderParamsSchema,
        body: refundRequestSchema,
        response: { 200: refundResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const {
        userId,
        refusal: _refusal,
        needsAdmin: _needsAdmin,
        ...refund
      } = await refundOrder(ctx, {
        orderLabel: request.params.orderId,
        reason: request.body.reason,
        actor: staffActorOf(getAuth(request).user),
      });
      return { refund, detail: await getCustomerDetail(ctx, { userId }) };
    },
  );
};
