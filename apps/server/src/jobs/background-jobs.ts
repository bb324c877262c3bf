import type { PaymentProviders } from '../payments/providers.ts';
import type { MailContext } from '../services/context.ts';
import { checkAlerts } from '../services/notifications/check-alerts.ts';
import { WebhookDispatcher } from '../services/notifications/deliver-webhooks.ts';
import { dispatchNotifications } from '../services/notifications/dispatch-notifications.ts';
import { runAutoBuys } from '../services/notifications/run-auto-buys.ts';
import { exitProbeJobs } from './probe-exits.ts';
import { sourceProbeJobs } from './probe-sources.ts';
import { pruneActivity } from './prune-activity.ts';
import { prunePaymentEvents } from './prune-payment-events.ts';
import { pruneSessions } from './prune-sessions.ts';
import { pruneUsage } from './prune-usage.ts';
import { reconcileTopups } from './reconcile-topups.ts';
import type { Job } from './scheduler.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Every background job of the `jobs` role: retention, top-up reconciliation, exit and network probes, and the
 * notifications: thresholds checked every 10 s, auto-buys every 15 s (within a minute of a crossing),
 * notifications mailed and webhooks POSTed every 2 s (each account's queue on its own: a pass starts
 * the due deliveries and returns, see WebhookDispatcher).
 */
export function backgroundJobs(ctx: MailContext, payments: PaymentProviders): Job[] {
  const webhooks = new WebhookDispatcher(ctx);
  return [
    {
      name: 'check-alerts',
      everyMs: 10_000,
      run: async () => {
        await checkAlerts(ctx);
      },
    },
    {
      name: 'auto-buy',
      everyMs: 15_000,
      run: async () => {
        await runAutoBuys(ctx);
      },
    },
    {
      name: 'dispatch-notifications',
      everyMs: 2_000,
      run: async () => {
        await dispatchNotifications(ctx);
      },
    },
    {
      name: 'deliver-webhooks',
      everyMs: 2_000,
      run: () => webhooks.pump(),
    },
    { name: 'prune-sessions', everyMs: HOUR_MS, run: () => pruneSessions(ctx) },
    { name: 'prune-usage', everyMs: HOUR_MS, run: () => pruneUsage(ctx) },
    { name: 'prune-activity', everyMs: HOUR_MS, run: () => pruneActivity(ctx) },
    {
      name: 'prune-payment-events',
      everyMs: HOUR_MS,
      run: async () => {
        await prunePaymentEvents(ctx);
      },
    },
    {
      name: 'reconcile-topups',
      everyMs: 60 * 1000,
      run: async () => {
        await reconcileTopups(ctx, payments);
      },
    },
    ...exitProbeJobs(ctx),
    ...sourceProbeJobs(ctx),
  ];
}
