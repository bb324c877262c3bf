import type { NotificationData, NotificationKind } from '@bytegate/contracts/notifications';
import type { Executor } from '@bytegate/db';
import { insertNotification, type NotificationRow } from '@bytegate/db/queries';

/**
 * Tells a customer of something: records the notification, which the jobs then mail and hand to the
 * webhook as the customer chose. Pass the transaction that made the thing so, where there is one.
 */
export function notify<K extends NotificationKind>(
  db: Executor,
  params: { userId: string; kind: K; data: NotificationData[K] },
): Promise<NotificationRow> {
  return insertNotification(db, { userId: params.userId, kind: params.kind, payload: { ...params.data } });
}
