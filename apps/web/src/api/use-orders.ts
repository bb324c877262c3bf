import type { Order } from '@bytegate/contracts/billing';
import { ORDERS_PAGE_SIZE } from '@bytegate/contracts/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function useOrders(page: number) {
  return useQuery({
    queryKey: queryKeys.orders(page),
    queryFn: () => api.orders.list(page, ORDERS_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
}

/**
 * Opens a completed order's invoice in a new tab. The session cookie goes with the tab's request; the
 * invoice is checked first (a HEAD) so a missing one is a toast here rather than an error page there.
 * The tab is opened inside the click, so no popup blocker stops it.
 */
export async function openInvoice(order: Order): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const response = await fetch(order.invoiceUrl, { method: 'HEAD', credentials: 'same-origin' });
    if (!response.ok) {
      throw new Error(`invoice answered ${response.status}`);
    }
    if (tab) {
      tab.opener = null;
      tab.location.href = order.invoiceUrl;
    } else {
      window.location.href = order.invoiceUrl;
    }
  } catch (error) {
    tab?.close();
    throw error;
  }
}
