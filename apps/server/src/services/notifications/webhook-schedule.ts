/**
 * When a failed webhook delivery is tried again: after 1 minute, 5, 30, then 2, 5 and 10 hours, for 24
 * hours from its creation; the last try is at the 24th hour. Pure, so the schedule is unit-tested.
 */

export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
/** The wait after the 1st, 2nd, ... failed attempt; the last one repeats. */
export const WEBHOOK_RETRY_DELAYS_MS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];

/**
 * The next attempt after `attempts` failed ones (counting the one that just failed), or null when the
 * delivery is over: it was tried at or after the end of its 24 hours.
 */
export function nextWebhookAttemptAt(props: { createdAt: Date; attempts: number; now: Date }): Date | null {
  const end = props.createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS;
  if (props.now.getTime() >= end) {
    return null;
  }
  const delay =
    WEBHOOK_RETRY_DELAYS_MS[Math.min(props.attempts, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? MINUTE;
  return new Date(Math.min(props.now.getTime() + delay, end));
}
