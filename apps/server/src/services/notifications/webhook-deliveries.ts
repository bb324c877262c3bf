import {
  notificationMessages,
  type WebhookDeliveriesResponse,
  type WebhookDelivery,
} from '@bytegate/contracts/notifications';
import {
  createWebhookDelivery,
  type DueWebhookDelivery,
  getNotificationSettings,
  insertNotification,
  listWebhookDeliveries,
  type WebhookAttemptRow,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { attemptWebhookDelivery, WEBHOOK_LEASE_MS } from './deliver-webhooks.ts';

export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;

function presentDelivery(row: DueWebhookDelivery & { attempts: WebhookAttemptRow[] }): WebhookDelivery {
  const { delivery, notification } = row;
  return {
    id: delivery.id,
    kind: notification.kind,
    status: delivery.status,
    url: delivery.url,
    createdAt: delivery.createdAt.toISOString(),
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    payload: {
      id: notification.id,
      type: notification.kind,
      created_at: notification.createdAt.toISOString(),
      data: notification.payload,
    },
    attempts: row.attempts.map((attempt) => ({
      attemptedAt: attempt.attemptedAt.toISOString(),
      statusCode: attempt.statusCode,
      responseBody: attempt.responseBody,
      error: attempt.error,
      durationMs: attempt.durationMs,
    })),
  };
}

const encodeCursor = (row: { createdAt: Date; id: string }) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(createdAt.getTime())) {
    throw new DomainError('VALIDATION_FAILED', 'The cursor is not one this list gave.', { field: 'cursor' });
  }
  return { createdAt, id };
}

/** The delivery log: the account's deliveries, newest first, a page at a time, with every attempt. */
export async function listOwnWebhookDeliveries(
  ctx: ServiceContext,
  params: { userId: string; cursor?: string | undefined },
): Promise<WebhookDeliveriesResponse> {
  const rows = await listWebhookDeliveries(ctx.db, {
    userId: params.userId,
    limit: WEBHOOK_DELIVERIES_PAGE_SIZE + 1,
    before: params.cursor ? decodeCursor(params.cursor) : undefined,
  });
  const page = rows.slice(0, WEBHOOK_DELIVERIES_PAGE_SIZE);
  const last = page.at(-1);
  return {
    deliveries: page.map(presentDelivery),
    nextCursor: rows.length > WEBHOOK_DELIVERIES_PAGE_SIZE && last ? encodeCursor(last.delivery) : null,
  };
}

/**
 * "Send test": a `test` event POSTed at once to the webhook, signed like any other, answering the
 * delivery with the receiver's answer. A test is tried once (it is never retried).
 */
export async function sendTestWebhook(
  ctx: ServiceContext,
  params: { userId: string },
): Promise<WebhookDelivery> {
  const settings = await getNotificationSettings(ctx.db, params);
  if (!settings?.webhookUrl) {
    throw new DomainError('CONFLICT', notificationMessages.webhookMissing);
  }
  const notification = await insertNotification(ctx.db, {
    userId: params.userId,
    kind: 'test',
    payload: { message: 'This is a test event from Bytegate: your webhook receives our notifications.' },
    dispatchedAt: new Date(),
    mailStatus: 'skipped',
  });
  // Made already claimed, as a jobs pass claims what it POSTs: a pass running while this POST waits
  // for its answer would otherwise find it pending and due, and POST the test event a second time.
  const delivery = await createWebhookDelivery(ctx.db, {
    notificationId: notification.id,
    userId: params.userId,
    url: settings.webhookUrl,
    nextAttemptAt: new Date(Date.now() + WEBHOOK_LEASE_MS),
  });
  await attemptWebhookDelivery(ctx, { delivery, notification }, { isRetried: false });
  const [done] = await listWebhookDeliveries(ctx.db, {
    userId: params.userId,
    limit: 1,
    deliveryId: delivery.id,
  });
  if (!done) {
    throw new Error('the test delivery just made is gone');
  }
  return presentDelivery(done);
}
