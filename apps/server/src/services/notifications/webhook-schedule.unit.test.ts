import { describe, expect, it } from 'vitest';
import { nextWebhookAttemptAt, WEBHOOK_RETRY_WINDOW_MS } from './webhook-schedule.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('the webhook retry schedule', () => {
  const createdAt = new Date('2026-11-27T00:00:00Z');

  it('waits 1 minute, 5, 30, then 2, 5 and 10 hours after each failed attempt', () => {
    let now = createdAt;
    const waits: number[] = [];
    for (let attempts = 1; attempts <= 6; attempts++) {
      const next = nextWebhookAttemptAt({ createdAt, attempts, now });
      expect(next).not.toBeNull();
      waits.push((next as Date).getTime() - now.getTime());
      now = next as Date;
    }
    expect(waits).toEqual([1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR]);
  });

  it('tries once more at the 24th hour, then gives up', () => {
    // After the 6th failure (17 h 36 min in), 10 hours would pass the window: the last try is at 24 h.
    const late = new Date(createdAt.getTime() + 17 * HOUR + 36 * MINUTE);
    expect(nextWebhookAttemptAt({ createdAt, attempts: 7, now: late })).toEqual(
      new Date(createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS),
    );
    const end = new Date(createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS);
    expect(nextWebhookAttemptAt({ createdAt, attempts: 8, now: end })).toBeNull();
    expect(nextWebhookAttemptAt({ createdAt, attempts: 2, now: new Date(end.getTime() + HOUR) })).toBeNull();
  });

  it('never schedules past the window however many attempts were made', () => {
    for (let attempts = 1; attempts < 50; attempts++) {
      for (const hoursIn of [0, 1, 12, 23, 23.99]) {
        const now = new Date(createdAt.getTime() + hoursIn * HOUR);
        const next = nextWebhookAttemptAt({ createdAt, attempts, now });
        expect(next).not.toBeNull();
        expect((next as Date).getTime()).toBeLessThanOrEqual(createdAt.getTime() + WEBHOOK_RETRY_WINDOW_MS);
        expect((next as Date).getTime()).toBeGreaterThan(now.getTime());
      }
    }
  });
});
