import type { OrderRow } from '@bytegate/db/queries';
import { ForeignInvoiceError, type InvoiceSnapshot, type PaymentProvider } from '../../payments/provider.ts';
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
  const snapshot = await readInvoice(ctx, provider, order);
  return { snapshot, result: await settleTopup(ctx, order.id, snapshot, options) };
}

/**
 * Reads a top-up's invoice from the provider, as every settling path does (webhook, poll, reconcile,
 * staff's check). An invoice that is not ours (ForeignInvoiceError) throws like any refusal, so nothing
 * is credited, and is logged as an error for the operator.
 */
export async function readInvoice(
  ctx: ServiceContext,
  provider: PaymentProvider,
  order: Pick<OrderRow, 'id' | 'providerInvoiceId'> & { providerInvoiceId: string },
): Promise<InvoiceSnapshot> {
  try {
    return await provider.getInvoice({ invoiceId: order.providerInvoiceId, orderId: order.id });
  } catch (error) {
    if (error instanceof ForeignInvoiceError) {
      ctx.log?.error(
        { orderId: order.id, provider: provider.name, invoiceId: order.providerInvoiceId },
        `top-up not settled: ${error.message}`,
      );
    }
    throw error;
  }
}
