import { planIdSchema } from '@bytegate/contracts/billing';
import {
  notificationSettingsSchema,
  planAutomationSchema,
  setAutoBuyRequestSchema,
  setLowTrafficAlertRequestSchema,
  setWebhookRequestSchema,
  updateNotificationSettingsRequestSchema,
  webhookDeliveriesResponseSchema,
  webhookDeliverySchema,
} from '@bytegate/contracts/notifications';
import { text } from '@bytegate/contracts/text';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../../services/context.ts';
import {
  getOwnNotificationSettings,
  removeOwnWebhook,
  rotateOwnWebhookSecret,
  setOwnWebhook,
  updateOwnNotificationSettings,
} from '../../../services/notifications/notification-settings.ts';
import {
  getPlanAutomation,
  removeAutoBuy,
  removeLowTrafficAlert,
  setAutoBuy,
  setLowTrafficAlert,
} from '../../../services/notifications/plan-automation.ts';
import {
  listOwnWebhookDeliveries,
  sendTestWebhook,
} from '../../../services/notifications/webhook-deliveries.ts';
import { getAuth } from '../../plugins/auth.ts';
import { rateLimitError } from '../../rate-limits.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];
const planParamsSchema = z.object({ planId: planIdSchema });
const cursorQuerySchema = z.object({ cursor: text('Cursor').max(200).optional() });

/** Each customer's webhook tests and address changes (each resolves a host or POSTs to it). */
const WEBHOOK_ACTIONS = { max: 20, windowMs: 60 * 60_000 };

/**
 * Notifications (docs/api.md "Notifications"): what a customer is told of and how (email, webhook), the
 * webhook's address, secret, test and delivery log, and each plan's low-traffic alert and auto-buy.
 */
export const notificationsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);
  const userIdOf = (request: Parameters<typeof getAuth>[0]) => getAuth(request).user.id;
  const limitWebhookActions = app.rateLimit({
    max: WEBHOOK_ACTIONS.max,
    timeWindow: WEBHOOK_ACTIONS.windowMs,
    keyGenerator: (request) => `webhook-actions:${userIdOf(request)}`,
    errorResponseBuilder: rateLimitError(),
  });

  app.get(
    '/notifications/settings',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'What the account is told of by email and by webhook, the low-balance amount and the webhook',
        security,
        response: { 200: notificationSettingsSchema, 401: errorResponseSchema },
      },
    },
    async (request) => getOwnNotificationSettings(ctx.db, { userId: userIdOf(request) }),
  );

  app.put(
    '/notifications/settings',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Choose the kinds told by email and by webhook, and the low-balance amount (null: none)',
        security,
        body: updateNotificationSettingsRequestSchema,
        response: { 200: notificationSettingsSchema, 400: errorResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => updateOwnNotificationSettings(ctx, { userId: userIdOf(request), body: request.body }),
  );

  app.put(
    '/notifications/webhook',
    {
      schema: {
        tags: ['notifications'],
        summary:
          "Set the webhook's address (http or https, resolving to public addresses); its signing secret is made the first time",
        security,
        body: setWebhookRequestSchema,
        response: {
          200: notificationSettingsSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      onRequest: limitWebhookActions,
    },
    async (request) => setOwnWebhook(ctx, { userId: userIdOf(request), url: request.body.url }),
  );

  app.delete(
    '/notifications/webhook',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Remove the webhook and its secret',
        security,
        response: { 200: notificationSettingsSchema, 401: errorResponseSchema },
      },
    },
    async (request) => removeOwnWebhook(ctx, { userId: userIdOf(request) }),
  );

  app.post(
    '/notifications/webhook/rotate-secret',
    {
      schema: {
        tags: ['notifications'],
        summary: 'A new signing secret; the old one stops signing at once',
        security,
        response: { 200: notificationSettingsSchema, 401: errorResponseSchema, 409: errorResponseSchema },
      },
    },
    async (request) => rotateOwnWebhookSecret(ctx, { userId: userIdOf(request) }),
  );

  app.post(
    '/notifications/webhook/test',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'POST a signed `test` event to the webhook now and answer the delivery with the receiver’s answer',
        security,
        response: {
          200: webhookDeliverySchema,
          401: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
      onRequest: limitWebhookActions,
    },
    async (request) => sendTestWebhook(ctx, { userId: userIdOf(request) }),
  );

  app.get(
    '/notifications/webhook/deliveries',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'The delivery log: deliveries newest first (20 a page, `cursor` for the next), with each attempt',
        security,
        querystring: cursorQuerySchema,
        response: {
          200: webhookDeliveriesResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
        },
      },
    },
    async (request) =>
      listOwnWebhookDeliveries(ctx, { userId: userIdOf(request), cursor: request.query.cursor }),
  );

  // A plan's low-traffic alert and auto-buy.

  app.get(
    '/plans/:planId/automation',
    {
      schema: {
        tags: ['notifications'],
        summary: "A plan's low-traffic alert and auto-buy, with this month's auto-buys",
        security,
        params: planParamsSchema,
        response: { 200: planAutomationSchema, 401: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      getPlanAutomation(ctx.db, { userId: userIdOf(request), planId: request.params.planId }),
  );

  const automationResponses = {
    200: planAutomationSchema,
    400: errorResponseSchema,
    401: errorResponseSchema,
    404: errorResponseSchema,
    409: errorResponseSchema,
  };

  app.put(
    '/plans/:planId/low-traffic-alert',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'Warn when the plan has under `thresholdGb` GB left, or `thresholdPercent` of its traffic used',
        security,
        params: planParamsSchema,
        body: setLowTrafficAlertRequestSchema,
        response: automationResponses,
      },
    },
    async (request) =>
      setLowTrafficAlert(ctx, {
        userId: userIdOf(request),
        planId: request.params.planId,
        body: request.body,
      }),
  );

  app.delete(
    '/plans/:planId/low-traffic-alert',
    {
      schema: {
        tags: ['notifications'],
        summary: "Remove the plan's low-traffic alert",
        security,
        params: planParamsSchema,
        response: automationResponses,
      },
    },
    async (request) =>
      removeLowTrafficAlert(ctx, { userId: userIdOf(request), planId: request.params.planId }),
  );

  app.put(
    '/plans/:planId/auto-buy',
    {
      schema: {
        tags: ['notifications'],
        summary:
          'When the plan has under `thresholdGb` GB left, buy `quantityGb` GB from the balance, at most `maxPerMonth` times a calendar month (UTC)',
        security,
        params: planParamsSchema,
        body: setAutoBuyRequestSchema,
        response: automationResponses,
      },
    },
    async (request) =>
      setAutoBuy(ctx, { userId: userIdOf(request), planId: request.params.planId, body: request.body }),
  );

  app.delete(
    '/plans/:planId/auto-buy',
    {
      schema: {
        tags: ['notifications'],
        summary: "Remove the plan's auto-buy",
        security,
        params: planParamsSchema,
        response: automationResponses,
      },
    },
    async (request) => removeAutoBuy(ctx, { userId: userIdOf(request), planId: request.params.planId }),
  );
};
