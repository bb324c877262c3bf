import { centsToDollars } from '@bytegate/contracts/money';
import type { TopupStatusResponse } from '@bytegate/contracts/topup';
import { getActiveUserById, getOrderByNumber, type OrderRow } from '@bytegate/db/queries';
import type { PaymentProvider } from '../../payments/provider.ts';
import { orderNumberLabel, parseOrderNumberLabel } from '../billing/present-order.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { clientTopupStatus } from './client-status.ts';
import { readInvoice } from './recheck-topup.ts';
import { settleTopup } from './settle-topup.ts';

export interface TopupStatus {
  order: OrderRow;
  rawStatus: string;
  balanceCents: number;
}

/**
 * A user's top-up status for the polling checkout dialog: a pending one is re-read from the provider
 * and settled, so a payment counts even when its webhook never arrives.
 */
export async function refreshTopup(
  ctx: ServiceContext,
  provider: PaymentProvider,
  props: {
    userId: string;
    orderLabel: string /** Re-read from the provider (default true). */;
    isRemoteCheck?: boolean;
  },
): Promise<TopupStatus> {
  const number = parseOrderNumberLabel(props.orderLabel);
  let order = number === null ? null : await getOrderByNumber(ctx.db, { userId: props.userId, number });
  if (order?.kind !== 'topup' || order.paymentMethod !== provider.name) {
    throw new DomainError('NOT_FOUND', 'No such top-up');
  }
  let rawStatus = order.providerStatus ?? 'pending';
  if (order.status === 'pending' && order.providerInvoiceId && props.isRemoteCheck !== false) {
    const snapshot = await readInvoice(ctx, provider, {
      id: order.id,
      providerInvoiceId: order.providerInvoiceId,
    }).catch(() => null);
    if (snapshot) {
      await settleTopup(ctx, order.id, snapshot);
      rawStatus = snapshot.rawStatus;
      order = (await getOrderByNumber(ctx.db, { userId: props.userId, number: order.number })) ?? order;
    }
  }
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  return { order, rawStatus, balanceCents: user?.balanceCents ?? 0 };
}

/** The polled status as the checkout dialog reads it (see client-status.ts for the casing rules). */
export async function getTopupStatusForClient(
  ctx: ServiceContext,
  provider: PaymentProvider,
  props: { userId: string; orderLabel: string; isRemoteCheck?: boolean; casing: 'lower' | 'upper' },
): Promise<TopupStatusResponse> {
  const status = await refreshTopup(ctx, provider, props);
  return {
    orderId: orderNumberLabel(status.order.number),
    status: clientTopupStatus(status.order, status.rawStatus, props.casing),
    orderStatus: status.order.status,
    balance: centsToDollars(status.balanceCents),
    amount: centsToDollars(status.order.amountCents),
    credited: status.order.status === 'completed' ? centsToDollars(status.order.creditedCents) : 0,
  };
}
