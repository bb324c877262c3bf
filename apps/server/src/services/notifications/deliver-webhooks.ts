import type { Executor } from '@bytegate/db';
import {
  claimDueWebhookDeliveries,
  type DueWebhookDelivery,
  getNotificationSettings,
  recordWebhookAttempt,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { postWebhook, type WebhookPostResult } from './post-webhook.ts';
import { nextWebhookAttemptAt } from './webhook-schedule.ts';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.ts';

/** At most this many deliveries are POSTed at once by one jobs process. */
const BATCH = 20;
/**
 * A claimed delivery is not claimed again for this long: longer than a POST's timeout. The test event's
 * route claims its delivery for as long when it makes it (webhook-deliveries.ts).
 */
export const WEBHOOK_LEASE_MS = 60_000;

/**
 * The body every attempt of a delivery sends, the same each time: the notification's id (receivers
 * drop one they have seen), its kind, when it happened, and its data.
 */
export function webhookBody(notification: DueWebhookDelivery['notification']): string {
  return JSON.stringify({
    id: notification.id,
    type: notification.kind,
    created_at: notification.createdAt.toISOString(),
    data: notification.payload,
  });
}

/**
 * One attempt of one delivery: POSTs it to the account's webhook as it is now (signed with its current
 * secret), records the answer, and settles the delivery: delivered on a 2xx, else tried again on the
 * schedule (webhook-schedule.ts) and failed after 24 hours. A webhook removed meanwhile fails it.
 */
export async function attemptWebhookDelivery(
  ctx: ServiceContext,
  due: DueWebhookDelivery,
  options: { now?: () => Date; isRetried?: boolean } = {},
): Promise<WebhookPostResult> {
  const now = options.now ?? (() => new Date());
  const { delivery, notification } = due;
  const settings = await getNotificationSettings(ctx.db, { userId: delivery.userId });
  if (!settings?.webhookUrl || !settings.webhookSecret) {
    const result = {
      statusCode: null,
      responseBody: null,
      error: 'No webhook is set any more.',
      durationMs: 0,
    };
    await record(ctx.db, due, result, { status: 'failed' });
    return result;
  }
  const body = webhookBody(notification);
  const timestamp = Math.floor(now().getTime() / 1000);
  const result = await postWebhook({
    url: settings.webhookUrl,
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Bytegate-Webhooks/1.0',
      'bytegate-event': notification.kind,
      'bytegate-delivery': delivery.id,
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(settings.webhookSecret, timestamp, body),
    },
    allowPrivateTargets: ctx.config.webhooks.allowPrivateTargets,
  });
  const isDelivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const at = now();
  const next =
    isDelivered || options.isRetried === false
      ? null
      : nextWebhookAttemptAt({ createdAt: delivery.createdAt, attempts: delivery.attempts + 1, now: at });
  await record(
    ctx.db,
    due,
    result,
    isDelivered
      ? { status: 'delivered', at }
      : next
        ? { status: 'pending', nextAttemptAt: next }
        : { status: 'failed' },
    settings.webhookUrl,
  );
  return result;
}

function record(
  db: Executor,
  due: DueWebhookDelivery,
  result: WebhookPostResult,
  outcome: Parameters<typeof recordWebhookAttempt>[1]['outcome'],
  url?: string,
): Promise<void> {
  return recordWebhookAttempt(db, {
    deliveryId: due.delivery.id,
    attempt: {
      statusCode: result.statusCode,
      responseBody: result.responseBody,
      error: result.error ?? (result.statusCode === null ? null : nonSuccess(result.statusCode)),
      durationMs: result.durationMs,
    },
    outcome,
    ...(url && url !== due.delivery.url ? { url } : {}),
  });
}

const nonSuccess = (status: number) =>
  status >= 200 && status < 300
    ? null
    : status >= 300 && status < 400
      ? `Answered ${status}: redirects are not followed, answer 2xx at this address.`
      : `Answered ${status}: only a 2xx counts as delivered.`;

/** The jobs' pass: every delivery whose time has come, a batch at a time, POSTed concurrently. */
export async function deliverDueWebhooks(
  ctx: ServiceContext,
  now: () => Date = () => new Date(),
): Promise<number> {
  let total = 0;
  for (;;) {
    const due = await claimDueWebhookDeliveries(ctx.db, {
      now: now(),
      limit: BATCH,
      leaseMs: WEBHOOK_LEASE_MS,
    });
    if (due.length === 0) {
      return total;
    }
    await Promise.all(due.map((one) => attemptWebhookDelivery(ctx, one, { now })));
    total += due.length;
    if (due.length < BATCH) {
      return total;
    }
  }
}
