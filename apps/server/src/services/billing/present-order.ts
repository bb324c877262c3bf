import type { Order } from '@bytegate/contracts/billing';
import { centsToDollars } from '@bytegate/contracts/money';
import type { OrderRow } from '@bytegate/db/queries';

/** The id people see and quote to support. */
export function orderNumberLabel(number: number): string {
  return `BG-${100000 + number}`;
}

export function parseOrderNumberLabel(label: string): number | null {
  const match = /^BG-(\d{6,15})$/.exec(label);
  if (!match?.[1]) {
    return null;
  }
  const number = Number(match[1]) - 100000;
  return number > 0 && Number.isSafeInteger(number) ? number : null;
}

const paymentMethodLabels: Record<OrderRow['paymentMethod'], string> = {
  balance: 'Account balance',
  cryptomus: 'Cryptomus',
  bitcart: 'Bitcart',
};

export function presentOrder(row: OrderRow, publicUrl: string): Order {
  const orderId = orderNumberLabel(row.number);
  return {
    orderId,
    date: row.createdAt.toISOString(),
    description: row.description,
    amount: row.amountCents / 100,
    currency: row.currency,
    paymentMethod: paymentMethodLabels[row.paymentMethod],
    status: row.status,
    invoiceUrl: row.status === 'completed' ? `${publicUrl}/api/orders/${orderId}/invoice` : '',
    creditedAmount:
      row.kind === 'topup' && row.status === 'completed' ? centsToDollars(row.creditedCents) : null,
  };
}
