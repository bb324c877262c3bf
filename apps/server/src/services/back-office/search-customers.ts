import { CUSTOMER_SEARCH_LIMIT, type CustomerSummary } from '@bytegate/contracts/admin';
import { listRecentUsers, searchUsers } from '@bytegate/db/queries';
import { parseOrderNumberLabel } from '../billing/present-order.ts';
import type { ServiceContext } from '../context.ts';
import { presentCustomerSummary } from './present-back-office.ts';

/** The order number a search text names: 'BG-100042' or its digits '100042'. */
function orderNumberOf(text: string): number | null {
  const label = /^\d{6,15}$/.test(text) ? `BG-${text}` : text.toUpperCase();
  return parseOrderNumberLabel(label);
}

/**
 * Customers by email or name (contains), proxy login, allowlisted IP, order number or provider invoice
 * id (exact), each once with the field it matched; an empty text lists the most recent accounts.
 */
export async function searchCustomers(ctx: ServiceContext, props: { q: string }): Promise<CustomerSummary[]> {
  const text = props.q.trim();
  if (text === '') {
    const rows = await listRecentUsers(ctx.db, { limit: CUSTOMER_SEARCH_LIMIT });
    return rows.map((row) => presentCustomerSummary(row, 'email'));
  }
  const found = await searchUsers(ctx.db, {
    text,
    orderNumber: orderNumberOf(text),
    limit: CUSTOMER_SEARCH_LIMIT,
  });
  return found.map(({ user, matchedBy }) => presentCustomerSummary(user, matchedBy));
}
