import {
  MAX_LOW_BALANCE_THRESHOLD_USD,
  NOTIFICATION_KIND_LABELS,
  notificationMessages,
  type WebhookDelivery,
} from '@bytegate/contracts/notifications';

/** A dollar amount as typed ('10', '12.5', '$7.25'): the number, or the contract's message. */
export function parseLowBalance(text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (trimmed === '') {
    return { value: null };
  }
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) {
    return { error: notificationMessages.lowBalanceFormat };
  }
  const value = Number(trimmed);
  if (value <= 0 || value > MAX_LOW_BALANCE_THRESHOLD_USD) {
    return { error: notificationMessages.lowBalanceFormat };
  }
  return { value };
}

/** How a delivery stands, in a word and a tone. */
export function deliveryStatus(delivery: Pick<WebhookDelivery, 'status' | 'attempts'>): {
  label: string;
  tone: 'success' | 'warning' | 'danger' | 'neutral';
} {
  if (delivery.status === 'delivered') {
    return { label: 'Delivered', tone: 'success' };
  }
  if (delivery.status === 'failed') {
    return { label: 'Failed', tone: 'danger' };
  }
  return delivery.attempts.length === 0
    ? { label: 'Queued', tone: 'neutral' }
    : { label: 'Retrying', tone: 'warning' };
}

/** The last answer in a few words: 'HTTP 200', 'HTTP 503', or the error. */
export function lastAnswer(delivery: Pick<WebhookDelivery, 'attempts'>): string {
  const last = delivery.attempts.at(-1);
  if (!last) {
    return 'Not sent yet';
  }
  return last.statusCode !== null ? `HTTP ${last.statusCode}` : (last.error ?? 'No answer');
}

/** The event's name as User Settings names it: 'low_traffic' is 'Low traffic', 'test' a 'Test event'. */
export function kindLabel(kind: string): string {
  if (kind === 'test') {
    return 'Test event';
  }
  const known = (NOTIFICATION_KIND_LABELS as Record<string, { title: string } | undefined>)[kind];
  const words = kind.replace(/_/g, ' ');
  return known?.title ?? words.charAt(0).toUpperCase() + words.slice(1);
}
