import type { TopupStatusResponse } from '@bytegate/contracts/topup';
import { api } from './api-client.ts';

export type TopupProvider = 'cryptomus' | 'bitcart';

export interface OpenedCheckout {
  provider: TopupProvider;
  orderId: string;
  checkoutUrl: string;
}

/** Opens an invoice at the chosen provider; answers where to pay. Missing data counts as a failure. */
export async function createTopupInvoice(provider: TopupProvider, amount: string): Promise<OpenedCheckout> {
  if (provider === 'cryptomus') {
    const invoice = await api.topup.cryptomus.createInvoice({ amount });
    const checkoutUrl = invoice.invoiceUrl || invoice.url;
    const orderId = invoice.orderId || invoice.order_id;
    if (!checkoutUrl || !orderId) {
      throw new Error('missing invoice data');
    }
    return { provider, orderId, checkoutUrl };
  }
  const invoice = await api.topup.bitcart.createInvoice({ amount });
  if (!invoice.invoiceUrl || !invoice.orderId || !invoice.id) {
    throw new Error('missing invoice data');
  }
  return { provider, orderId: invoice.orderId, checkoutUrl: invoice.invoiceUrl };
}

export function fetchTopupStatus(checkout: OpenedCheckout): Promise<TopupStatusResponse> {
  return checkout.provider === 'cryptomus'
    ? api.topup.cryptomus.getStatus(checkout.orderId)
    : api.topup.bitcart.getStatus(checkout.orderId);
}

/** SPEC section 4: what a polled status means. Cryptomus is lower case, Bitcart upper case. */
export function readTopupStatus(provider: TopupProvider, status: string): 'success' | 'failure' | 'pending' {
  const word = provider === 'cryptomus' ? status.toLowerCase() : status.toUpperCase();
  const success =
    provider === 'cryptomus' ? ['completed', 'paid', 'confirmed'] : ['COMPLETED', 'CONFIRMED', 'PAID'];
  const failure = provider === 'cryptomus' ? ['failed', 'expired'] : ['FAILED', 'EXPIRED'];
  if (success.includes(word)) {
    return 'success';
  }
  return failure.includes(word) ? 'failure' : 'pending';
}
