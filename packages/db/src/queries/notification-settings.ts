import { eq } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { notificationSettings } from '../schema/notifications.ts';
import type { NotificationKindValue } from './notifications.ts';

export type NotificationSettingsRow = typeof notificationSettings.$inferSelect;

/** An account's choices, or null when it never changed the defaults. */
export async function getNotificationSettings(
  db: Executor,
  params: { userId: string },
): Promise<NotificationSettingsRow | null> {
  const [row] = await db
    .select()
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, params.userId))
    .limit(1);
  return row ?? null;
}

/**
 * Writes an account's choices: the row is made from `defaults` the first time, then only the fields
 * given change. Setting a low-balance threshold re-arms its alert (`isBalanceLow` false), so a new
 * threshold the balance is already under is told once, at the next check.
 */
export async function upsertNotificationSettings(
  db: Executor,
  params: {
    userId: string;
    defaults: { emailKinds: NotificationKindValue[]; webhookKinds: NotificationKindValue[] };
    set: Partial<
      Pick<
        NotificationSettingsRow,
        'emailKinds' | 'webhookKinds' | 'lowBalanceThresholdCents' | 'webhookUrl' | 'webhookSecret'
      >
    >;
  },
): Promise<NotificationSettingsRow> {
  const set = {
    ...params.set,
    ...('lowBalanceThresholdCents' in params.set ? { isBalanceLow: false } : {}),
  };
  const [row] = await db
    .insert(notificationSettings)
    .values({ userId: params.userId, ...params.defaults, ...set })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { ...set, updatedAt: new Date() } })
    .returning();
  if (!row) {
    throw new Error('notification settings upsert returned no row');
  }
  return row;
}
