import type { NotificationData, NotificationKind } from '@bytegate/contracts/notifications';
import {
  claimStaleMailNotifications,
  claimUndispatchedNotifications,
  createWebhookDelivery,
  getActiveUserById,
  getNotificationSettings,
  type NotificationRow,
  setNotificationMailStatus,
} from '@bytegate/db/queries';
import { notificationMail } from '../../mail/notification-templates.ts';
import type { MailContext } from '../context.ts';
import { channelsOf } from './notification-settings.ts';

const BATCH = 100;
/** A mail a crash (or an SMTP outage) left unsent is tried again after this long... */
const MAIL_RETRY_AFTER_MS = 5 * 60 * 1000;
/** ...for a day, then given up. */
const MAIL_GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The jobs' pass over new notifications: each is taken once (claimUndispatchedNotifications), gets a
 * webhook delivery when the account has a webhook and chose the kind for it, and is mailed when it
 * chose the kind by email. A mail that fails stays pending and is tried again every few minutes for a
 * day. Answers how many it took.
 */
export async function dispatchNotifications(
  ctx: MailContext,
  now: () => Date = () => new Date(),
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await claimUndispatchedNotifications(ctx.db, { now: now(), limit: BATCH });
    for (const row of rows) {
      await dispatchOne(ctx, row);
    }
    total += rows.length;
    if (rows.length < BATCH) {
      break;
    }
  }
  const stale = await claimStaleMailNotifications(ctx.db, {
    now: now(),
    olderThanMs: MAIL_RETRY_AFTER_MS,
    limit: BATCH,
  });
  for (const row of stale) {
    if (now().getTime() - row.createdAt.getTime() > MAIL_GIVE_UP_AFTER_MS) {
      await setNotificationMailStatus(ctx.db, {
        notificationId: row.id,
        status: 'failed',
        error: row.mailError ?? 'not sent within a day',
      });
    } else {
      await mailOne(ctx, row);
    }
  }
  return total;
}

async function dispatchOne(ctx: MailContext, row: NotificationRow): Promise<void> {
  const settings = await getNotificationSettings(ctx.db, { userId: row.userId });
  const channels = channelsOf(settings);
  const kind = row.kind as NotificationKind;
  if (channels.webhook && kind !== 'test' && channels.webhookKinds.includes(kind)) {
    await createWebhookDelivery(ctx.db, {
      notificationId: row.id,
      userId: row.userId,
      url: channels.webhook.url,
    });
  }
  if (kind !== 'test' && channels.emailKinds.includes(kind)) {
    await mailOne(ctx, row);
  } else {
    await setNotificationMailStatus(ctx.db, { notificationId: row.id, status: 'skipped' });
  }
}

async function mailOne(ctx: MailContext, row: NotificationRow): Promise<void> {
  const user = await getActiveUserById(ctx.db, { userId: row.userId });
  if (!user) {
    await setNotificationMailStatus(ctx.db, { notificationId: row.id, status: 'skipped' });
    return;
  }
  const kind = row.kind as NotificationKind;
  try {
    await ctx.mailer.send({
      to: user.email,
      ...notificationMail({
        kind,
        data: row.payload as unknown as NotificationData[typeof kind],
        name: user.firstName,
        publicUrl: ctx.config.publicUrl,
      }),
    });
    await setNotificationMailStatus(ctx.db, { notificationId: row.id, status: 'sent' });
  } catch (error) {
    // Left pending: claimStaleMailNotifications brings it back in a few minutes.
    await setNotificationMailStatus(ctx.db, {
      notificationId: row.id,
      status: 'pending',
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
