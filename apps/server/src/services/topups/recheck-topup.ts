import type { OrderRow } from '@bytegate/db/queries';
import type { InvoiceSnapshot, PaymentProvider } from '../../payments/provider.ts';
import type { ServiceContext } from '../context.ts';
import { type SettleOptions, type SettleResult, settleTopup } from './settle-topup.ts';

/**
 * Asks the provider for a top-up's invoice now and settles on its answer: what the reconcile job does
 * for every pending top-up, and what staff's "check with provider" does for one. A provider that cannot
 * be reached or refuses throws (PaymentProviderError), and nothing changes.
 */
export async function recheckTopup(
  ctx: ServiceContext,
  provider: PaymentProvider,
  order: Pick<OrderRow, 'id' | 'providerInvoiceId'> & { providerInvoiceId: string },
  options: SettleOptions = {},
): Promise<{ snapshot: InvoiceSnapshot; result: SettleResult }> {
  const snapshot = await provider.getInvoice({ invoiceId: order.providerInvoiceId, orderId: order.id });
  return { snapshot, result: await settleTopup(ctx, order.id, snapshot, options) };
}
