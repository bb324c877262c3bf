import type { PaymentProviders } from '../payments/providers.ts';
import type { ServiceContext } from '../services/context.ts';
import { exitProbeJobs } from './probe-exits.ts';
import { prunePaymentEvents } from './prune-payment-events.ts';
import { pruneSessions } from './prune-sessions.ts';
import { pruneUsage } from './prune-usage.ts';
import { reconcileTopups } from './reconcile-topups.ts';
import type { Job } from './scheduler.ts';

const HOUR_MS = 60 * 60 * 1000;

/** Every background job of the `jobs` role: retention, top-up reconciliation and exit probes. */
export function backgroundJobs(ctx: ServiceContext, payments: PaymentProviders): Job[] {
  return [
    { name: 'prune-sessions', everyMs: HOUR_MS, run: () => pruneSessions(ctx) },
    { name: 'prune-usage', everyMs: HOUR_MS, run: () => pruneUsage(ctx) },
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
  ];
}
