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

/** At most this many deliveries are POSTed at once by one jobs process (each to another account). */
export const WEBHOOK_CONCURRENCY = 16;
/**
 * A claimed delivery is not claimed again for this long: far longer than a POST's deadline. The test event's
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
  const isDelivered =
    result.error === null &&
    result.statusCode !== null &&
    result.statusCode >= 200 &&
    result.statusCode < 300;
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

/**
 * The webhook queues of one jobs process: each account's deliveries go out one at a time, oldest first,
 * and up to `concurrency` accounts' at once. A pass (`pump`) claims one due delivery for each account
 * with none on its way (as many as there are free slots), starts them and returns without waiting for
 * them; each one finished pumps again. So a receiver that takes its full deadline holds its own
 * account's queue and one slot, never a pass, nor another account's delivery.
 */
export class WebhookDispatcher {
  /** The accounts with a POST on its way (one each at most). */
  private readonly busy = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private pumping: Promise<void> | null = null;
  private isPumpAgain = false;
  private started = 0;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: { concurrency?: number; now?: () => Date } = {},
  ) {}

  /** Deliveries started so far. */
  get startedCount(): number {
    return this.started;
  }

  /** Claims and starts what is due, as far as the free slots go; resolves once they are started. */
  pump(): Promise<void> {
    if (this.pumping) {
      this.isPumpAgain = true;
      return this.pumping;
    }
    this.pumping = this.claimAndStart().finally(() => {
      this.pumping = null;
      if (this.isPumpAgain) {
        this.isPumpAgain = false;
        this.pump().catch((error: unknown) => this.ctx.log?.error({ err: error }, 'webhook pass failed'));
      }
    });
    return this.pumping;
  }

  /** Resolves once nothing is on its way (the pass that runs now included). */
  async idle(): Promise<void> {
    while (this.pumping || this.running.size > 0) {
      await Promise.allSettled([this.pumping, ...this.running]);
    }
  }

  private async claimAndStart(): Promise<void> {
    const now = this.options.now ?? (() => new Date());
    const free = (this.options.concurrency ?? WEBHOOK_CONCURRENCY) - this.busy.size;
    const due = await claimDueWebhookDeliveries(this.ctx.db, {
      now: now(),
      limit: free,
      leaseMs: WEBHOOK_LEASE_MS,
      busyUserIds: [...this.busy],
    });
    for (const one of due) {
      const userId = one.delivery.userId;
      this.busy.add(userId);
      this.started += 1;
      const running: Promise<void> = attemptWebhookDelivery(this.ctx, one, { now })
        .then(
          () => undefined,
          (error: unknown) =>
            this.ctx.log?.error({ err: error, deliveryId: one.delivery.id }, 'webhook delivery failed'),
        )
        .finally(() => {
          this.busy.delete(userId);
          this.running.delete(running);
          // The account's next event, and whatever waited for a slot, go at once.
          this.pump().catch((error: unknown) => this.ctx.log?.error({ err: error }, 'webhook pass failed'));
        });
      this.running.add(running);
    }
  }
}

/**
 * Every delivery due now, each account's in order, and waits for all of them: for tests and the docs'
 * examples. The jobs process runs a long-lived WebhookDispatcher instead, which never waits on a POST.
 * Answers how many attempts were made.
 */
export async function deliverDueWebhooks(
  ctx: ServiceContext,
  now: () => Date = () => new Date(),
): Promise<number> {
  const dispatcher = new WebhookDispatcher(ctx, { now });
  await dispatcher.pump();
  await dispatcher.idle();
  return dispatcher.startedCount;
}
