import { listPendingTopups } from '@bytegate/db/queries';
import type { PaymentProviders } from '../payments/providers.ts';
import type { ServiceContext } from '../services/context.ts';
import { recheckTopup } from '../services/topups/recheck-topup.ts';

const LOOK_BACK_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Re-reads every pending top-up of the last three days from its provider and settles it. Webhooks can
 * be lost (Bitcart never retries its IPN) and nobody may be polling, so this is what makes a paid
 * invoice count in the end. Answers how many were credited.
 */
export async function reconcileTopups(
  ctx: ServiceContext,
  payments: PaymentProviders,
  now = new Date(),
): Promise<number> {
  const pending = await listPendingTopups(ctx.db, {
    since: new Date(now.getTime() - LOOK_BACK_MS),
    limit: 200,
  });
  let credited = 0;
  for (const order of pending) {
    const provider = payments.find(order.paymentMethod);
    if (!provider || !order.providerInvoiceId) {
      continue;
    }
    try {
      const { result } = await recheckTopup(ctx, provider, {
        id: order.id,
        providerInvoiceId: order.providerInvoiceId,
      });
      if (result === 'credited') {
        credited += 1;
      }
    } catch {
      // The provider is unreachable or refused: the next round tries again.
    }
  }
  return credited;
}
