import type { Order } from '@bytegate/contracts/billing';
import { ORDERS_PAGE_SIZE } from '@bytegate/contracts/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { sessionStore } from '../features/auth/session-store.ts';
import { apiRequest } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export interface OrdersPage {
  orders: Order[];
  pagination: { currentPage: number; totalPages: number; totalItems: number; itemsPerPage: number };
}

export function useOrders(page: number) {
  return useQuery({
    queryKey: queryKeys.orders(page),
    queryFn: () => apiRequest<OrdersPage>('GET', `/orders?page=${page}&limit=${ORDERS_PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });
}

/**
 * Opens a completed order's invoice in a new tab. The invoice needs the bearer token, so it is fetched
 * here and shown from memory; the tab is opened first, inside the click, so no popup blocker stops it.
 */
export async function openInvoice(order: Order): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const response = await fetch(order.invoiceUrl, {
      headers: { authorization: `Bearer ${sessionStore.get()?.token ?? ''}` },
    });
    if (!response.ok) {
      throw new Error(`invoice answered ${response.status}`);
    }
    const url = URL.createObjectURL(new Blob([await response.text()], { type: 'text/html' }));
    if (tab) {
      tab.location.href = url;
    } else {
      window.location.href = url;
    }
  } catch (error) {
    tab?.close();
    throw error;
  }
}
